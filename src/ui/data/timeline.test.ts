import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { change, node, obj, pod } from './fixtures.js';
import { filterTimeline, TimelineRows, timelineEntry } from './timeline.js';

const event = (reason: string, inv: Record<string, string>, type = 'Normal') => ({
  ...obj('Event', `e-${reason}`, { namespace: inv.namespace ?? 'default' }),
  involvedObject: inv,
  reason,
  message: `${reason} happened`,
  type,
});

describe('timelineEntry', () => {
  const cases: [string, Parameters<typeof timelineEntry>[0], unknown][] = [
    [
      'a pod change',
      change('MODIFIED', '', 'pods', pod('ns', 'p', { node: 'n1', ready: false })),
      { type: 'MODIFIED', kind: 'Pod', target: 'ns/p', summary: 'Running, not ready on n1' },
    ],
    [
      'a node change (cluster-scoped: no namespace)',
      change('ADDED', '', 'nodes', node('n1', { down: true })),
      { type: 'ADDED', kind: 'Node', target: 'n1', summary: 'Down' },
    ],
    [
      'an Event is about its involved object',
      change(
        'ADDED',
        '',
        'events',
        event('Killing', { kind: 'Pod', namespace: 'ns', name: 'p' }, 'Warning'),
      ),
      { type: 'Event', kind: 'Pod', target: 'ns/p', summary: 'Warning Killing: Killing happened' },
    ],
  ];
  for (const [name, c, want] of cases) {
    it(name, () => {
      const e = timelineEntry(c, 0);
      assert.deepEqual(
        { type: e?.type, kind: e?.kind, target: e?.target, summary: e?.summary },
        want,
      );
    });
  }
  it('drops Event deletions (TTL expiry)', () => {
    assert.equal(
      timelineEntry(change('DELETED', '', 'events', event('x', { kind: 'Pod', name: 'p' })), 0),
      undefined,
    );
  });
});

describe('filterTimeline', () => {
  const rows = new TimelineRows();
  const entries = [
    change('ADDED', '', 'pods', pod('a', 'web-0')),
    change('ADDED', '', 'pods', pod('b', 'web-0')),
    change('ADDED', 'apps', 'statefulsets', obj('StatefulSet', 'web', { namespace: 'a' })),
    change(
      'ADDED',
      '',
      'events',
      event('Scheduled', { kind: 'Pod', namespace: 'a', name: 'web-0' }),
    ),
  ];
  const all = rows.update(entries, (i) => i * 1000);
  const cases: [string, { namespace: string; kind: string; object: string }, number, string[]][] = [
    [
      'everything, newest first',
      { namespace: '', kind: '', object: '' },
      10,
      ['Event a/web-0', 'ADDED a/web', 'ADDED b/web-0', 'ADDED a/web-0'],
    ],
    ['by namespace', { namespace: 'b', kind: '', object: '' }, 10, ['ADDED b/web-0']],
    [
      'by kind (Events count as their object’s kind)',
      { namespace: 'a', kind: 'Pod', object: '' },
      10,
      ['Event a/web-0', 'ADDED a/web-0'],
    ],
    [
      'by object name, case-insensitive',
      { namespace: '', kind: '', object: 'WEB-0' },
      10,
      ['Event a/web-0', 'ADDED b/web-0', 'ADDED a/web-0'],
    ],
    ['capped', { namespace: '', kind: '', object: '' }, 2, ['Event a/web-0', 'ADDED a/web']],
  ];
  for (const [name, f, limit, want] of cases) {
    it(name, () => {
      const { shown, total } = filterTimeline(all, f, limit);
      assert.deepEqual(
        shown.map((r) => `${r.type} ${r.target}`),
        want,
      );
      assert.ok(total >= shown.length);
    });
  }
  it('collects the namespaces and kinds for the filters, and only derives new entries on update', () => {
    assert.deepEqual([...rows.namespaces].sort(), ['a', 'b']);
    assert.deepEqual([...rows.kinds].sort(), ['Pod', 'StatefulSet']);
    assert.equal(rows.update(entries, () => 0).length, 4);
  });
});
