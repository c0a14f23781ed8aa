import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { KubeObject, ObjectMeta as ServerObjectMeta } from '../object.js';
import {
  asKind,
  type Container,
  type ControllerRevision,
  type Deployment,
  isKind,
  KINDS,
  type KindName,
  type Kinds,
  kindMismatch,
  type ObjectMeta,
  type Pod,
} from './index.js';

// Compile-time checks: `tsc -p tsconfig.json` fails when one no longer holds.
type Assert<T extends true> = T;
type Extends<A, B> = [A] extends [B] ? true : false;
/** Every typed kind flows into code that takes a KubeObject. */
export type EveryKindIsAKubeObject = Assert<Extends<Kinds[KindName], KubeObject>>;
/** The server's ObjectMeta is the generated one plus an index signature, both ways. */
export type MetadataBothWays = Assert<Extends<ObjectMeta, ServerObjectMeta>> &
  Assert<Extends<ServerObjectMeta, ObjectMeta>>;
/** A KubeObject becomes a Pod through asKind/isKind only. */
export type NoBlindNarrowing = Assert<Extends<KubeObject, Pod> extends false ? true : false>;

describe('typed model', () => {
  it('types what upstream requires, and the int64 the code handles as a bigint', () => {
    const revision: ControllerRevision = { revision: 2n ** 60n, data: { spec: {} } };
    // @ts-expect-error `name` is required upstream
    const nameless: Container = { image: 'busybox' };
    // @ts-expect-error a Pod's kind is 'Pod'
    const wrongKind: Pod = { kind: 'Service' };
    const meta: ObjectMeta = { creationTimestamp: null, labels: null, generation: 1 };
    assert.equal(typeof revision.revision, 'bigint');
    assert.equal(nameless.image, 'busybox');
    assert.equal(wrongKind.kind, 'Service');
    assert.equal(meta.generation, 1);
  });

  it('narrows a KubeObject to a kind without a cast, and back', () => {
    const obj: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0' },
      spec: { containers: [{ name: 'web', image: 'nginx' }] },
    };
    // @ts-expect-error a KubeObject's kind is any string: narrow it with asKind or isKind
    const blind: Pod = obj;
    const pod = asKind(obj, 'Pod');
    const images: string[] = pod.spec?.containers.map((c) => c.image ?? '') ?? [];
    const back: KubeObject = pod;
    assert.equal(pod, obj, 'the same object, not a copy');
    assert.equal(back, blind);
    assert.deepEqual(images, ['nginx']);
    if (!isKind(obj, 'Pod')) assert.fail('a Pod with kind and apiVersion');
    const name: string | undefined = obj.spec?.containers[0]?.name;
    assert.equal(name, 'web');
  });
});

describe('asKind', () => {
  const cases: [string, unknown, KindName, RegExp | undefined][] = [
    ['a list item without kind or apiVersion', { metadata: { name: 'a' } }, 'Pod', undefined],
    ['kind and apiVersion that match', { apiVersion: 'v1', kind: 'Pod' }, 'Pod', undefined],
    [
      'another group version of DeleteOptions',
      { apiVersion: 'apps/v1' },
      'DeleteOptions',
      undefined,
    ],
    [
      'events.k8s.io Event',
      { apiVersion: 'events.k8s.io/v1', kind: 'Event' },
      'EventsV1Event',
      undefined,
    ],
    [
      'a celld kind',
      { apiVersion: 'celld.fleetyard.dev/v1alpha1', kind: 'CelldFleet' },
      'CelldFleet',
      undefined,
    ],
    ['another kind', { apiVersion: 'v1', kind: 'Service' }, 'Pod', /got kind "Service"/],
    ['another group', { apiVersion: 'apps/v1', kind: 'Pod' }, 'Pod', /got apiVersion "apps\/v1"/],
    ['core Event as events.k8s.io', { apiVersion: 'v1', kind: 'Event' }, 'EventsV1Event', /"v1"/],
    ['a non-string apiVersion', { apiVersion: 1 }, 'Pod', /got apiVersion 1/],
    ['metadata that is not an object', { metadata: 'web' }, 'Pod', /metadata of type string/],
    ['null', null, 'Pod', /expected a Pod \(v1\) object, got null/],
    ['an array', [], 'Pod', /got an array/],
    ['a string', 'Pod', 'Pod', /got string/],
  ];
  for (const [name, obj, kind, error] of cases) {
    it(name, () => {
      if (error === undefined) assert.equal(asKind(obj, kind), obj);
      else assert.throws(() => asKind(obj, kind), { name: 'TypeError', message: error });
    });
  }
});

describe('isKind', () => {
  const cases: [string, unknown, KindName, boolean][] = [
    [
      'kind and apiVersion match',
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      'Deployment',
      true,
    ],
    ['no kind (a list item: ask asKind)', { apiVersion: 'apps/v1' }, 'Deployment', false],
    ['no apiVersion', { kind: 'Deployment' }, 'Deployment', false],
    ['another kind', { apiVersion: 'apps/v1', kind: 'ReplicaSet' }, 'Deployment', false],
    ['not an object', undefined, 'Deployment', false],
  ];
  for (const [name, obj, kind, want] of cases) {
    it(name, () => assert.equal(isKind(obj, kind), want));
  }

  it('is true exactly when the kind and one of its apiVersions match', () => {
    const names = Object.keys(KINDS) as KindName[];
    const pick = fc
      .constantFrom(...names)
      .chain((of) => fc.tuple(fc.constant(of), fc.constantFrom(...KINDS[of].apiVersions)));
    fc.assert(
      fc.property(pick, fc.constantFrom(...names), ([of, apiVersion], name) => {
        const obj = { apiVersion, kind: KINDS[of].kind };
        const same = KINDS[name].kind === obj.kind && KINDS[name].apiVersions.includes(apiVersion);
        assert.equal(isKind(obj, name), same);
        assert.equal(kindMismatch(obj, name) === undefined, same);
      }),
    );
  });

  it('narrows to the kind', () => {
    const objects: unknown[] = [
      { apiVersion: 'apps/v1', kind: 'Deployment', spec: { replicas: 3 } },
      { apiVersion: 'v1', kind: 'Pod' },
    ];
    const deployments: Deployment[] = objects.filter((o) => isKind(o, 'Deployment'));
    assert.deepEqual(
      deployments.map((d) => d.spec?.replicas),
      [3],
    );
  });
});
