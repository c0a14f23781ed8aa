import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapeHtml, podChipHtml, podChipsHtml } from './chips-html.js';
import type { PodChip } from './cluster-map.js';

const chip = (over: Partial<PodChip> = {}): PodChip => ({
  key: 'ns/web-0',
  namespace: 'ns',
  name: 'web-0',
  phase: 'Running',
  ready: true,
  terminating: false,
  ...over,
});

describe('podChipHtml', () => {
  it('carries the DOM contract attributes', () => {
    assert.equal(
      podChipHtml(chip({ ready: false, terminating: true })),
      '<a class="pod" href="#/object/core/pods/ns/web-0" data-testid="pod" data-pod="ns/web-0" data-phase="Running" data-ready="false" data-terminating="true" aria-label="ns/web-0: Running, not ready, terminating" title="ns/web-0: Running, not ready, terminating"></a>',
    );
  });

  it('never lets a value out of its attribute', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (name, phase) => {
        const html = podChipHtml(chip({ key: `ns/${name}`, name, phase }));
        // Every quote in the output delimits an attribute: 8 attributes with values, 2 quotes each.
        assert.equal(html.split('"').length - 1, 2 * 8);
        assert.ok(!html.slice(2, -4).includes('<'), 'no element inside the chip');
      }),
    );
  });

  it('escapes the five HTML specials', () =>
    assert.equal(escapeHtml(`a&b<c>d"e'f`), 'a&amp;b&lt;c&gt;d&quot;e&#39;f'));

  it('returns the same string for the same pods array', () => {
    const pods = [chip(), chip({ key: 'ns/web-1', name: 'web-1' })];
    assert.equal(podChipsHtml(pods), podChipsHtml(pods));
    assert.equal(podChipsHtml(pods), pods.map(podChipHtml).join(''));
  });
});
