import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { objectHref } from './relations.js';
import { parseRoute } from './route.js';

describe('parseRoute', () => {
  const cases: [string, unknown][] = [
    ['', { view: 'map' }],
    ['#/map', { view: 'map' }],
    ['#/timeline', { view: 'timeline' }],
    ['#/nope', { view: 'map' }],
    [
      '#/object/core/pods/ns/p-1',
      { view: 'object', group: '', resource: 'pods', namespace: 'ns', name: 'p-1' },
    ],
    [
      '#/object/core/nodes/_/n1',
      { view: 'object', group: '', resource: 'nodes', namespace: undefined, name: 'n1' },
    ],
    [
      '#/object/apps/statefulsets/ns/web',
      { view: 'object', group: 'apps', resource: 'statefulsets', namespace: 'ns', name: 'web' },
    ],
  ];
  for (const [hash, want] of cases)
    it(hash || '(empty)', () => assert.deepEqual(parseRoute(hash), want));

  it('reads back every object link', () => {
    const part = fc.stringMatching(/^[a-z0-9][a-z0-9.-]{0,20}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('', 'apps', 'celld.fleetyard.dev'),
        part,
        fc.option(part, { nil: undefined }),
        part,
        (group, resource, namespace, name) => {
          assert.deepEqual(parseRoute(objectHref({ group, resource }, namespace, name)), {
            view: 'object',
            group,
            resource,
            namespace,
            name,
          });
        },
      ),
    );
  });
});
