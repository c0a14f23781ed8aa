/**
 * Discovery for the collector: which resources get a monitor, how refs map to endpoints, and
 * how a partial discovery failure keeps what was known.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type DiscoveredResource,
  deletableResources,
  discoverResources,
  mergeDiscovery,
  parseResourceList,
  RestMapper,
} from './discovery.js';

const ALL = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];

function res(
  group: string,
  version: string,
  plural: string,
  kind: string,
  verbs = ALL,
): DiscoveredResource {
  return { group, version, plural, kind, namespaced: true, verbs };
}

describe('parseResourceList', () => {
  it('keeps top-level resources with their scope and verbs, drops subresources', () => {
    const doc = {
      kind: 'APIResourceList',
      resources: [
        { name: 'pods', namespaced: true, kind: 'Pod', verbs: ['list'] },
        { name: 'pods/status', namespaced: true, kind: 'Pod', verbs: ['get'] },
        { name: 'nodes', namespaced: false, kind: 'Node', verbs: ['watch'] },
        { name: '', kind: 'Broken' },
      ],
    };
    assert.deepEqual(parseResourceList(doc, '', 'v1'), [
      { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true, verbs: ['list'] },
      {
        group: '',
        version: 'v1',
        plural: 'nodes',
        kind: 'Node',
        namespaced: false,
        verbs: ['watch'],
      },
    ]);
  });
});

describe('deletableResources', () => {
  const cases: { name: string; input: DiscoveredResource[]; want: string[] }[] = [
    {
      name: 'needs delete, list and watch',
      input: [res('', 'v1', 'pods', 'Pod'), res('', 'v1', 'bindings', 'Binding', ['create'])],
      want: ['/pods@v1'],
    },
    {
      name: 'ignores Events in both groups',
      input: [res('', 'v1', 'events', 'Event'), res('events.k8s.io', 'v1', 'events', 'Event')],
      want: [],
    },
    {
      name: 'one monitor per group and plural, the first (preferred) version',
      input: [
        res('example.com', 'v2', 'widgets', 'Widget'),
        res('example.com', 'v1', 'widgets', 'Widget'),
      ],
      want: ['example.com/widgets@v2'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.deepEqual(
        deletableResources(c.input).map((r) => `${r.group}/${r.plural}@${r.version}`),
        c.want,
      );
    });
  }
});

describe('RestMapper', () => {
  const mapper = new RestMapper([
    res('apps', 'v1', 'deployments', 'Deployment'),
    res('example.com', 'v2', 'widgets', 'Widget'),
    res('example.com', 'v1', 'widgets', 'Widget'),
    res('', 'v1', 'configmaps', 'ConfigMap'),
  ]);
  const cases: [string, string, string | undefined][] = [
    ['v1', 'ConfigMap', '/configmaps@v1'],
    ['apps/v1', 'Deployment', 'apps/deployments@v1'],
    // A ref written at a version no longer served still names the object.
    ['apps/v1beta2', 'Deployment', 'apps/deployments@v1'],
    ['example.com/v1', 'Widget', 'example.com/widgets@v1'],
    ['example.com/v9', 'Widget', 'example.com/widgets@v2'],
    ['v1', 'Deployment', undefined],
    ['other.io/v1', 'Widget', undefined],
  ];
  for (const [apiVersion, kind, want] of cases) {
    it(`${apiVersion} ${kind} → ${want ?? 'unknown'}`, () => {
      const r = mapper.resolve(apiVersion, kind);
      assert.equal(r === undefined ? undefined : `${r.group}/${r.plural}@${r.version}`, want);
    });
  }
});

describe('discoverResources', () => {
  const docs: Record<string, unknown> = {
    '/api': { kind: 'APIVersions', versions: ['v1'] },
    '/api/v1': { resources: [{ name: 'pods', namespaced: true, kind: 'Pod', verbs: ALL }] },
    '/apis': {
      groups: [
        {
          name: 'example.com',
          versions: [{ version: 'v1' }, { version: 'v2' }],
          preferredVersion: { version: 'v2' },
        },
        { name: 'broken.io', versions: [{ version: 'v1' }], preferredVersion: { version: 'v1' } },
      ],
    },
    '/apis/example.com/v1': {
      resources: [{ name: 'widgets', namespaced: true, kind: 'Widget', verbs: ALL }],
    },
    '/apis/example.com/v2': {
      resources: [{ name: 'widgets', namespaced: true, kind: 'Widget', verbs: ALL }],
    },
  };
  const get = async (path: string): Promise<unknown> => {
    if (!(path in docs)) throw new Error(`503 ${path}`);
    return docs[path];
  };

  it('reads every group version, preferred first, and reports failed groups', async () => {
    const result = await discoverResources(get);
    assert.deepEqual(
      result.resources.map((r) => `${r.group}/${r.plural}@${r.version}`),
      ['/pods@v1', 'example.com/widgets@v2', 'example.com/widgets@v1'],
    );
    assert.deepEqual([...result.failedGroups], ['broken.io']);
  });

  it('keeps the previous resources of a group that failed this time', () => {
    const previous = [
      res('broken.io', 'v1', 'things', 'Thing'),
      res('', 'v1', 'secrets', 'Secret'),
    ];
    const merged = mergeDiscovery(previous, {
      resources: [res('', 'v1', 'pods', 'Pod')],
      failedGroups: new Set(['broken.io']),
    });
    // Secrets vanished from a group that answered: dropped. broken.io: kept.
    assert.deepEqual(
      merged.map((r) => `${r.group}/${r.plural}`),
      ['/pods', 'broken.io/things'],
    );
  });
});
