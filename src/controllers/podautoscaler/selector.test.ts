/**
 * Upstream `validateAndParseSelector`: a missing or unparsable selector, and pods claimed by two
 * HPAs (`AmbiguousSelector`, on both of them).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseLabelSelector } from '../../api/labels/selector.js';
import { validateSelector } from './selector.js';

const hpa = { metadata: { name: 'a', namespace: 'ns' } };
const pods = [
  { metadata: { name: 'p1', labels: { app: 'web' } } },
  { metadata: { name: 'p2', labels: { app: 'db' } } },
];

describe('validateSelector', () => {
  it('selects the pods of the selector', () => {
    const r = validateSelector({ hpa, selector: 'app=web', pods, others: [] });
    assert.ok(r.ok);
    assert.deepEqual(
      r.pods.map((p) => p.metadata?.name),
      ['p1'],
    );
  });

  it('a missing selector: SelectorRequired, InvalidSelector condition', () => {
    const r = validateSelector({ hpa, selector: '', pods, others: [] });
    assert.ok(!r.ok);
    assert.deepEqual(
      [r.reason, r.error, r.condition.reason, r.condition.message],
      [
        'SelectorRequired',
        'selector is required',
        'InvalidSelector',
        "the HPA target's scale is missing a selector",
      ],
    );
  });

  it('an unparsable selector: InvalidSelector', () => {
    const r = validateSelector({ hpa, selector: 'app in (', pods, others: [] });
    assert.ok(!r.ok);
    assert.equal(r.reason, 'InvalidSelector');
    assert.match(
      r.error,
      /^couldn't convert selector into a corresponding internal selector object: /,
    );
  });

  it('pods another HPA selects: AmbiguousSelector naming both', () => {
    const others = [
      { key: 'ns/b', selector: parseLabelSelector('app') },
      { key: 'ns/c', selector: parseLabelSelector('app=db') },
    ];
    const r = validateSelector({ hpa, selector: 'app=web', pods, others });
    assert.ok(!r.ok);
    assert.equal(r.reason, 'AmbiguousSelector');
    assert.equal(r.error, 'pods by selector app=web are controlled by multiple HPAs: [ns/a ns/b]');
  });
});
