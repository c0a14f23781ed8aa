import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../errors.js';
import {
  decodeKubernetesProtobuf,
  hasProtobufMagic,
  KUBERNETES_PROTOBUF_MEDIA_TYPE,
  ProtobufDecodeError,
} from './decode.js';
import { envelope, fBytes, fEntry, fPacked, fVarint } from './testing/wire-writer.js';

type Json = Record<string, unknown>;

function decode(apiVersion: string, kind: string, ...fields: Buffer[]): Json {
  return decodeKubernetesProtobuf(envelope(apiVersion, kind, fields)).object;
}

/** ObjectMeta as Go writes it: every non-pointer field, even empty. */
function meta(name: string, ...extra: Buffer[]): Buffer {
  return fBytes(1, [
    fBytes(1, name),
    fBytes(2, ''),
    fBytes(3, ''),
    fBytes(4, ''),
    fBytes(5, ''),
    fBytes(6, ''),
    fVarint(7, 0),
    fBytes(8, ''),
    ...extra,
  ]);
}

function rejects(body: Buffer, message: RegExp): void {
  assert.throws(
    () => decodeKubernetesProtobuf(body),
    (e: unknown) => {
      assert.ok(e instanceof ProtobufDecodeError);
      assert.ok(e instanceof StatusError);
      assert.equal(e.status.code, 400);
      assert.equal(e.status.reason, 'BadRequest');
      assert.match(e.message, message);
      return true;
    },
  );
}

describe('decodeKubernetesProtobuf: envelope and kinds', () => {
  it('exports the media type and a magic check', () => {
    assert.equal(KUBERNETES_PROTOBUF_MEDIA_TYPE, 'application/vnd.kubernetes.protobuf');
    assert.equal(hasProtobufMagic(Buffer.from('k8s\0rest')), true);
    assert.equal(hasProtobufMagic(Buffer.from('{"kind":"Pod"}')), false);
  });

  it('puts kind and apiVersion first, from the envelope', () => {
    const d = decodeKubernetesProtobuf(envelope('v1', 'ServiceAccount', meta('sa')));
    assert.equal(d.apiVersion, 'v1');
    assert.equal(d.kind, 'ServiceAccount');
    assert.deepEqual(Object.keys(d.object), ['kind', 'apiVersion', 'metadata']);
    assert.deepEqual(d.object.metadata, { name: 'sa', creationTimestamp: null });
  });

  const bad: { name: string; body: Buffer; message: RegExp }[] = [
    {
      name: 'a kind named after an Object.prototype property',
      body: envelope('constructor', 'name', []),
      message: /constructor, Kind=name/,
    },
    { name: 'a JSON body', body: Buffer.from('{"kind":"Pod"}'), message: /does not start with/ },
    { name: 'an empty body', body: Buffer.alloc(0), message: /does not start with/ },
    { name: 'the magic alone', body: Buffer.from('k8s\0'), message: /without a kind/ },
    {
      name: 'an unknown kind',
      body: envelope('v1', 'Frobnicator', []),
      message: /v1, Kind=Frobnicator/,
    },
    {
      name: 'a known kind in another group version',
      body: envelope('apps/v1beta1', 'Deployment', []),
      message: /apps\/v1beta1, Kind=Deployment/,
    },
    {
      name: 'a compressed object',
      body: Buffer.concat([
        Buffer.from('k8s\0'),
        fBytes(1, [fBytes(1, 'v1'), fBytes(2, 'Pod')]),
        fBytes(3, 'gzip'),
      ]),
      message: /content encoding "gzip"/,
    },
    {
      name: 'a stray envelope field',
      body: Buffer.concat([Buffer.from('k8s\0'), fVarint(9, 1)]),
      message: /unexpected field 9 in runtime.Unknown/,
    },
    {
      name: 'a truncated object',
      body: envelope('v1', 'Pod', meta('p')).subarray(0, 30),
      message: /bytes but only/,
    },
  ];
  for (const c of bad) {
    it(`rejects ${c.name} with 400 BadRequest`, () => rejects(c.body, c.message));
  }

  it('accepts DeleteOptions under any group version', () => {
    for (const apiVersion of ['v1', 'apps/v1', 'meta.k8s.io/v1']) {
      const d = decode(
        apiVersion,
        'DeleteOptions',
        fVarint(1, 0),
        fBytes(2, [fBytes(1, 'uid-1'), fBytes(2, '42')]),
        fBytes(4, 'Foreground'),
        fBytes(5, 'All'),
      );
      assert.deepEqual(d, {
        kind: 'DeleteOptions',
        apiVersion,
        gracePeriodSeconds: 0,
        preconditions: { uid: 'uid-1', resourceVersion: '42' },
        propagationPolicy: 'Foreground',
        dryRun: ['All'],
      });
    }
  });
});

describe('decodeKubernetesProtobuf: Go JSON semantics', () => {
  it('keeps set pointer zeros, drops omitempty zeros, keeps non-omitempty zeros', () => {
    const d = decode(
      'apps/v1',
      'Deployment',
      meta('web'),
      fBytes(2, [
        fVarint(1, 0), // replicas *int32 = 0
        fBytes(3, [fBytes(2, [fBytes(2, [fBytes(1, ''), fBytes(2, '')])])]), // template.spec.containers[0]
        fBytes(4, ''),
        fVarint(5, 0), // minReadySeconds int32 omitempty
        fVarint(7, 0), // paused bool omitempty
      ]),
    );
    assert.deepEqual(d.spec, {
      replicas: 0,
      selector: null,
      template: {
        metadata: { creationTimestamp: null },
        spec: { containers: [{ name: '', resources: {} }] },
      },
      strategy: {},
    });
    assert.deepEqual(d.status, {});
  });

  it('gives absent non-pointer structs their zero JSON, as Go does', () => {
    assert.deepEqual(decode('apps/v1', 'Deployment'), {
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { creationTimestamp: null },
      spec: {
        selector: null,
        template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
        strategy: {},
      },
      status: {},
    });
    assert.deepEqual(decode('policy/v1', 'PodDisruptionBudget').status, {
      disruptionsAllowed: 0,
      currentHealthy: 0,
      desiredHealthy: 0,
      expectedPods: 0,
    });
  });

  it('decodes timestamps: Time to seconds, MicroTime to microseconds, empty to null', () => {
    const ts = (seconds: number, nanos: number): Buffer =>
      Buffer.concat([fVarint(1, seconds), fVarint(2, nanos)]);
    const d = decode(
      'events.k8s.io/v1',
      'Event',
      meta('e', fBytes(9, ts(1714979289, 999_000_000))),
      fBytes(2, ts(1714979289, 123_456_789)),
      fBytes(13, ts(0, 0)),
    );
    const metadata = d.metadata as Json;
    assert.equal(metadata.creationTimestamp, null);
    assert.equal(metadata.deletionTimestamp, '2024-05-06T07:08:09Z');
    assert.equal(d.eventTime, '2024-05-06T07:08:09.123456Z');
    assert.equal(d.deprecatedFirstTimestamp, '1970-01-01T00:00:00Z');
    assert.equal(d.deprecatedLastTimestamp, null);
    // Go's zero time (year 1) is null too; nanoseconds outside a second carry over.
    const zero = decode('events.k8s.io/v1', 'Event', fBytes(2, ts(-62135596800, 0)));
    assert.equal(zero.eventTime, null);
    const carry = decode('events.k8s.io/v1', 'Event', fBytes(2, ts(0, 1_500_000_000)));
    assert.equal(carry.eventTime, '1970-01-01T00:00:01.500000Z');
    rejects(envelope('events.k8s.io/v1', 'Event', fBytes(2, ts(253402300800, 0))), /outside years/);
    rejects(envelope('events.k8s.io/v1', 'Event', fBytes(2, ts(2 ** 62, 0))), /outside years/);
  });

  it('decodes IntOrString as a number or a string', () => {
    const ios = (type: number, i: number, s: string): Buffer =>
      Buffer.concat([fVarint(1, type), fVarint(2, i), fBytes(3, s)]);
    const spec = decode(
      'policy/v1',
      'PodDisruptionBudget',
      fBytes(2, [fBytes(1, ios(0, -3, '')), fBytes(3, ios(1, 0, '25%'))]),
    ).spec as Json;
    assert.equal(spec.minAvailable, -3);
    assert.equal(spec.maxUnavailable, '25%');
    rejects(
      envelope('policy/v1', 'PodDisruptionBudget', fBytes(2, [fBytes(1, ios(2, 0, ''))])),
      /unknown type 2/,
    );
  });

  it('decodes quantities, byte maps and sorts map keys, the last duplicate winning', () => {
    const q = (s: string): Buffer => fBytes(1, s);
    const pvc = decode(
      'v1',
      'PersistentVolumeClaim',
      meta('c', fEntry(11, 'b', 'first'), fEntry(11, 'a', '1'), fEntry(11, 'b', 'last')),
      fBytes(2, [fBytes(2, [fEntry(2, 'storage', q('1Gi')), fBytes(2, [fBytes(1, 'cpu')])])]),
    );
    assert.deepEqual(Object.entries((pvc.metadata as Json).labels as Json), [
      ['a', '1'],
      ['b', 'last'],
    ]);
    // A map entry without a value holds the zero Quantity.
    assert.deepEqual((pvc.spec as Json).resources, { requests: { cpu: '0', storage: '1Gi' } });
    const secret = decode(
      'v1',
      'Secret',
      fEntry(2, 'k', Buffer.from([0, 255, 1])),
      fEntry(4, 's', 'plain'),
    );
    assert.deepEqual(secret.data, { k: 'AP8B' });
    assert.deepEqual(secret.stringData, { s: 'plain' });
    rejects(
      envelope(
        'v1',
        'PersistentVolumeClaim',
        fBytes(2, [fBytes(2, [fEntry(2, 'storage', fBytes(1, ''))])]),
      ),
      /empty quantity/,
    );
  });

  it('accepts repeated ints packed or not, and negative ints', () => {
    const podWith = (...sc: Buffer[]): Json =>
      (decode('v1', 'Pod', fBytes(2, [fBytes(14, sc)])).spec as Json).securityContext as Json;
    assert.deepEqual(podWith(fVarint(4, 1), fVarint(4, -2)).supplementalGroups, [1, -2]);
    assert.deepEqual(podWith(fPacked(4, [1, -2]), fVarint(4, 3)).supplementalGroups, [1, -2, 3]);
    const scale = decode(
      'autoscaling/v1',
      'Scale',
      fBytes(2, [fVarint(1, -1)]),
      fBytes(3, [fVarint(1, 0), fBytes(2, '')]),
    );
    assert.deepEqual(scale.spec, { replicas: -1 });
    assert.deepEqual(scale.status, { replicas: 0 });
  });

  it('keeps a __proto__ map key as a plain key', () => {
    const d = decode('v1', 'ConfigMap', meta('c', fEntry(11, '__proto__', 'x')));
    const labels = (d.metadata as Json).labels as Json;
    assert.deepEqual(Object.keys(labels), ['__proto__']);
    assert.equal(Object.getPrototypeOf(labels), Object.prototype);
  });

  it('merges repeated occurrences of a message field, as protobuf does', () => {
    const d = decode(
      'v1',
      'ConfigMap',
      fBytes(1, [fBytes(1, 'a')]),
      fBytes(1, [fBytes(3, 'ns'), fBytes(1, 'b')]),
    );
    assert.deepEqual(d.metadata, { name: 'b', namespace: 'ns', creationTimestamp: null });
  });

  it('embeds RawExtension and FieldsV1 JSON, and nested protobuf objects', () => {
    const nested = envelope('v1', 'ConfigMap', [meta('inner'), fEntry(2, 'k', 'v')]);
    const managed = fBytes(17, [
      fBytes(1, 'kubectl'),
      fBytes(2, 'Update'),
      fBytes(6, 'FieldsV1'),
      fBytes(7, [fBytes(1, '{"f:data":{}}')]),
    ]);
    const json = decode(
      'apps/v1',
      'ControllerRevision',
      meta('r', managed),
      fBytes(2, [fBytes(1, '{"spec":{"x":1}}')]),
      fVarint(3, 4),
    );
    assert.deepEqual(json.data, { spec: { x: 1 } });
    assert.equal(json.revision, 4);
    assert.deepEqual((json.metadata as Json).managedFields, [
      {
        manager: 'kubectl',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': {} },
      },
    ]);
    const pb = decode('apps/v1', 'ControllerRevision', fBytes(2, [fBytes(1, nested)]));
    assert.deepEqual(pb.data, {
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'inner', creationTimestamp: null },
      data: { k: 'v' },
    });
    assert.equal(decode('apps/v1', 'ControllerRevision').data, null);
    rejects(
      envelope('apps/v1', 'ControllerRevision', fBytes(2, [fBytes(1, 'not json')])),
      /does not hold JSON/,
    );
    let deep = nested;
    for (let i = 0; i < 10; i++)
      deep = envelope('apps/v1', 'ControllerRevision', fBytes(2, [fBytes(1, deep)]));
    rejects(deep, /nest too deep/);
  });
});

describe('decodeKubernetesProtobuf: fields it does not know', () => {
  const container = (...extra: Buffer[]): Buffer =>
    fBytes(2, [fBytes(3, [fBytes(2, [fBytes(2, [fBytes(1, 'app'), ...extra])])]), fBytes(4, '')]);

  it('skips unknown fields that carry only zero values (newer clients write every field)', () => {
    const d = decode(
      'apps/v1',
      'Deployment',
      container(fVarint(200, 0), fBytes(201, ''), fBytes(202, [fVarint(1, 0)])),
    );
    const spec = ((d.spec as Json).template as Json).spec as Json;
    assert.deepEqual(spec.containers, [{ name: 'app', resources: {} }]);
  });

  it('rejects unknown fields with data, naming the message and the path', () => {
    rejects(
      envelope('apps/v1', 'Deployment', container(fBytes(200, 'x'))),
      /field 200 of core.Container at spec.template.spec.containers\[0\] is not known/,
    );
    rejects(
      envelope('v1', 'Namespace', fVarint(9, 1)),
      /field 9 of core.Namespace at the top level/,
    );
  });

  it('rejects a known field with the wrong wire type', () => {
    rejects(
      envelope('v1', 'Namespace', fBytes(1, [fVarint(1, 5)])),
      /wrong wire type 0 for meta.ObjectMeta field 1 \(metadata.name\)/,
    );
    rejects(
      envelope('apps/v1', 'Deployment', fBytes(2, [fBytes(1, 'x')])),
      /wrong wire type 2 for apps.DeploymentSpec field 1/,
    );
  });
});
