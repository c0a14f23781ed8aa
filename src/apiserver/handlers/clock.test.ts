import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FakeClockControl } from '../testing/fake-clock-control.js';
import { startTestServer, type TestServer } from '../testing/test-server.js';

const BASE = '/apis/sim.fleetyard.dev/v1alpha1';
const CLOCK = `${BASE}/clocks/cluster`;
const START = Date.parse('2026-01-01T00:00:00Z');
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const MERGE = 'application/merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

type Json = Record<string, unknown>;
const spec = (r: { body: Json }): Json => r.body.spec as Json;
const status = (r: { body: Json }): Json => r.body.status as Json;

describe('clocks.sim.fleetyard.dev', () => {
  let t: TestServer;
  let clock: FakeClockControl;
  before(async () => {
    clock = new FakeClockControl({ now: START });
    t = await startTestServer({ server: { clockControl: clock } });
  });
  after(() => t.close());
  beforeEach(() => {
    // 15 minutes after the server started, running at speed 1 with three timers.
    clock.mode = 'virtual';
    clock.now = START + 15 * 60_000;
    clock.speed = 1;
    clock.paused = false;
    clock.target = undefined;
    clock.pendingTimers = 3;
    clock.nextTimer = START + 16 * 60_000;
  });

  describe('discovery', () => {
    it('lists the group in /apis (legacy and aggregated) and its one resource', async () => {
      const groups = (await t.request('GET', '/apis')).body.groups as Json[];
      assert.deepEqual(
        groups.find((g) => g.name === 'sim.fleetyard.dev'),
        {
          name: 'sim.fleetyard.dev',
          versions: [{ groupVersion: 'sim.fleetyard.dev/v1alpha1', version: 'v1alpha1' }],
          preferredVersion: { groupVersion: 'sim.fleetyard.dev/v1alpha1', version: 'v1alpha1' },
        },
      );
      const group = await t.request('GET', '/apis/sim.fleetyard.dev');
      assert.equal(group.body.kind, 'APIGroup');
      const list = await t.request('GET', BASE);
      assert.deepEqual(list.body, {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'sim.fleetyard.dev/v1alpha1',
        resources: [
          {
            name: 'clocks',
            singularName: 'clock',
            namespaced: false,
            kind: 'Clock',
            verbs: ['get', 'list', 'patch', 'update'],
          },
        ],
      });
      const agg = await t.request('GET', '/apis', { accept: V2 });
      const item = (agg.body.items as Json[]).find(
        (i) => (i.metadata as Json).name === 'sim.fleetyard.dev',
      );
      assert.deepEqual(item?.versions, [
        {
          version: 'v1alpha1',
          resources: [
            {
              resource: 'clocks',
              responseKind: { group: 'sim.fleetyard.dev', version: 'v1alpha1', kind: 'Clock' },
              scope: 'Cluster',
              singularResource: 'clock',
              verbs: ['get', 'list', 'patch', 'update'],
            },
          ],
          freshness: 'Current',
        },
      ]);
    });
  });

  describe('reads', () => {
    it('GET computes the object from the clock', async () => {
      const r = await t.request('GET', CLOCK);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, {
        apiVersion: 'sim.fleetyard.dev/v1alpha1',
        kind: 'Clock',
        metadata: {
          name: 'cluster',
          resourceVersion: '1',
          creationTimestamp: '2026-01-01T00:00:00Z',
        },
        spec: { speed: '1', paused: false },
        status: {
          time: '2026-01-01T00:15:00.000Z',
          mode: 'virtual',
          state: 'Running',
          pendingTimers: 3,
          nextTimer: '2026-01-01T00:16:00.000Z',
          quiescent: true,
        },
      });
    });

    it('another name is NotFound in upstream words', async () => {
      const r = await t.request('GET', `${BASE}/clocks/other`);
      assert.equal(r.status, 404);
      assert.equal(r.body.message, 'clocks.sim.fleetyard.dev "other" not found');
      assert.deepEqual(r.body.details, {
        name: 'other',
        group: 'sim.fleetyard.dev',
        kind: 'clocks',
      });
    });

    const lists: [string, number][] = [
      ['', 1],
      ['?fieldSelector=metadata.name%3Dcluster', 1],
      ['?fieldSelector=metadata.name%3Dother', 0],
      ['?labelSelector=a%3Db', 0],
    ];
    for (const [query, n] of lists) {
      it(`LIST${query} is a ClockList of ${n}`, async () => {
        const r = await t.request('GET', `${BASE}/clocks${query}`);
        assert.equal(r.body.kind, 'ClockList');
        assert.equal(r.body.apiVersion, 'sim.fleetyard.dev/v1alpha1');
        assert.equal((r.body.items as Json[]).length, n);
      });
    }

    it("answers kubectl's Table for GET and LIST", async () => {
      clock.speed = 'max';
      for (const path of [CLOCK, `${BASE}/clocks?limit=500`]) {
        const r = await t.request('GET', path, { accept: TABLE });
        assert.equal(r.headers['content-type'], 'application/json;as=Table;v=v1;g=meta.k8s.io');
        assert.equal(r.body.kind, 'Table');
        const columns = (r.body.columnDefinitions as Json[]).map((c) => [c.name, c.priority]);
        assert.deepEqual(columns, [
          ['Name', 0],
          ['Time', 0],
          ['Speed', 0],
          ['State', 0],
          ['Timers', 0],
          ['Age', 0],
          ['Next Timer', 1],
          ['Quiescent', 1],
          ['Mode', 1],
        ]);
        const rows = r.body.rows as { cells: unknown[]; object: Json }[];
        assert.deepEqual(rows[0]?.cells, [
          'cluster',
          '2026-01-01T00:15:00.000Z',
          'max',
          'Running',
          3,
          '15m',
          '2026-01-01T00:16:00.000Z',
          true,
          'virtual',
        ]);
        assert.equal(rows[0]?.object.kind, 'PartialObjectMetadata');
      }
    });
  });

  describe('writes', () => {
    const patches: [string, string, unknown][] = [
      ['merge', MERGE, { spec: { speed: 'max' } }],
      [
        'strategic (as merge)',
        'application/strategic-merge-patch+json',
        { spec: { speed: 'max' } },
      ],
      [
        'json',
        'application/json-patch+json',
        [{ op: 'replace', path: '/spec/speed', value: 'max' }],
      ],
    ];
    for (const [name, contentType, body] of patches) {
      it(`a ${name} patch of spec.speed sets the speed`, async () => {
        const r = await t.request('PATCH', CLOCK, { contentType, body });
        assert.equal(r.status, 200, r.text);
        assert.equal(clock.speed, 'max');
        assert.equal(spec(r).speed, 'max');
      });
    }

    it('server-side apply merges the applied spec', async () => {
      const r = await t.request('PATCH', `${CLOCK}?fieldManager=kubectl&force=true`, {
        contentType: APPLY,
        raw: 'apiVersion: sim.fleetyard.dev/v1alpha1\nkind: Clock\nmetadata: {name: cluster}\nspec: {paused: true}\n',
      });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([clock.paused, clock.speed, spec(r).speed], [true, 1, '1']);
    });

    it('pauses and resumes; a number is taken for a speed', async () => {
      await t.request('PATCH', CLOCK, { contentType: MERGE, body: { spec: { paused: true } } });
      assert.equal(clock.paused, true);
      const r = await t.request('PATCH', CLOCK, {
        contentType: MERGE,
        body: { spec: { paused: false, speed: 0.5 } },
      });
      assert.deepEqual([clock.paused, clock.speed, spec(r).speed], [false, 0.5, '0.5']);
    });

    it('spec.runUntil starts a run-until (not awaited) and null cancels it', async () => {
      const r = await t.request('PATCH', CLOCK, {
        contentType: MERGE,
        body: { spec: { runUntil: '2026-01-01T01:00:00Z' } },
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(clock.target, Date.parse('2026-01-01T01:00:00Z'));
      assert.equal(status(r).state, 'Advancing');
      assert.equal(spec(r).runUntil, '2026-01-01T01:00:00.000Z');
      const cancelled = await t.request('PATCH', CLOCK, {
        contentType: MERGE,
        body: { spec: { runUntil: null } },
      });
      assert.equal(clock.target, undefined);
      assert.equal(spec(cancelled).runUntil, undefined);
    });

    it('PUT replaces the spec and ignores metadata and status', async () => {
      const current = (await t.request('GET', CLOCK)).body;
      const body = {
        ...current,
        metadata: { ...(current.metadata as Json), labels: { a: 'b' } },
        spec: { speed: '10', paused: true },
        status: { time: '1999-01-01T00:00:00Z' },
      };
      const r = await t.request('PUT', CLOCK, { body });
      assert.equal(r.status, 200, r.text);
      assert.deepEqual([clock.speed, clock.paused], [10, true]);
      assert.equal((r.body.metadata as Json).labels, undefined);
      assert.equal(status(r).time, '2026-01-01T00:15:00.000Z');
      assert.equal(status(r).state, 'Paused');
    });

    it('a dry run answers the result and changes nothing', async () => {
      const r = await t.request('PATCH', `${CLOCK}?dryRun=All`, {
        contentType: MERGE,
        body: { spec: { speed: 'max' } },
      });
      assert.equal(spec(r).speed, 'max');
      assert.equal(clock.speed, 1);
    });

    const invalid: [string, Json, string][] = [
      [
        'a bad speed',
        { speed: 'fast' },
        'spec.speed: Invalid value: "fast": must be a number >= 0 or "max"',
      ],
      [
        'a negative speed',
        { speed: -1 },
        'spec.speed: Invalid value: -1: must be a number >= 0 or "max"',
      ],
      ['no speed', { speed: null }, 'spec.speed: Required value'],
      [
        'a non-boolean paused',
        { paused: 'yes' },
        'spec.paused: Invalid value: "yes": must be a boolean',
      ],
      [
        'a bad time',
        { runUntil: 'tomorrow' },
        'spec.runUntil: Invalid value: "tomorrow": must be an RFC 3339 time, e.g. 2026-01-01T00:15:00Z',
      ],
      [
        'a time in the past',
        { runUntil: '2026-01-01T00:10:00Z' },
        'spec.runUntil: Invalid value: "2026-01-01T00:10:00.000Z": must not be before status.time (2026-01-01T00:15:00.000Z)',
      ],
    ];
    for (const [name, patch, message] of invalid) {
      it(`${name} is 422 Invalid with a field error`, async () => {
        const r = await t.request('PATCH', CLOCK, { contentType: MERGE, body: { spec: patch } });
        assert.equal(r.status, 422);
        assert.equal(r.body.reason, 'Invalid');
        assert.equal(r.body.message, `Clock.sim.fleetyard.dev "cluster" is invalid: ${message}`);
        const details = r.body.details as { kind: string; causes: Json[] };
        assert.equal(details.kind, 'Clock');
        assert.equal(details.causes[0]?.field, message.slice(0, message.indexOf(':')));
        assert.deepEqual([clock.speed, clock.paused, clock.target], [1, false, undefined]);
      });
    }

    it('a real clock refuses any change (422 Forbidden) but takes an unchanged spec', async () => {
      clock.mode = 'real';
      const r = await t.request('PATCH', CLOCK, {
        contentType: MERGE,
        body: { spec: { speed: '2' } },
      });
      assert.equal(r.status, 422);
      assert.equal(
        r.body.message,
        'Clock.sim.fleetyard.dev "cluster" is invalid: spec.speed: Forbidden: the cluster runs on the wall clock (fleetyard up --clock real): its speed cannot change',
      );
      const same = await t.request('PUT', CLOCK, { body: (await t.request('GET', CLOCK)).body });
      assert.equal(same.status, 200, same.text);
    });

    it('unknown fields follow fieldValidation: Strict fails, Warn warns', async () => {
      const body = { spec: { sped: '2' } };
      const strict = await t.request('PATCH', `${CLOCK}?fieldValidation=Strict`, {
        contentType: MERGE,
        body,
      });
      assert.equal(strict.status, 422);
      assert.match(String(strict.body.message), /strict decoding error: unknown field "spec.sped"/);
      const warn = await t.request('PATCH', CLOCK, { contentType: MERGE, body });
      assert.equal(warn.status, 200);
      assert.equal(warn.headers.warning, '299 - "unknown field \\"spec.sped\\""');
    });

    const refused: [string, string, number, string, unknown][] = [
      ['an unknown patch type', CLOCK, 415, 'application/yaml', { spec: { speed: '2' } }],
      ['apply without a field manager', CLOCK, 422, APPLY, { spec: { speed: '2' } }],
      ['apply of an undeclared field', `${CLOCK}?fieldManager=m`, 500, APPLY, { spec: { x: 1 } }],
      ['a stale resourceVersion', CLOCK, 409, MERGE, { metadata: { resourceVersion: '7' } }],
      ['another name', `${BASE}/clocks/other`, 404, MERGE, { spec: { speed: '2' } }],
      ['a renamed object', CLOCK, 400, MERGE, { metadata: { name: 'x' } }],
      ['a patch that is not JSON', CLOCK, 400, MERGE, undefined],
    ];
    for (const [name, path, code, contentType, body] of refused) {
      it(`refuses ${name} with ${code}`, async () => {
        const options = body === undefined ? { raw: '{', contentType } : { contentType, body };
        const r = await t.request('PATCH', path, options);
        assert.equal(r.status, code, r.text);
        assert.equal(clock.speed, 1);
      });
    }
  });

  describe('unsupported verbs and paths', () => {
    const cases: [string, string, number, string][] = [
      [
        'POST',
        `${BASE}/clocks`,
        405,
        'the server does not allow this method on the requested resource',
      ],
      ['DELETE', CLOCK, 405, 'the server does not allow this method on the requested resource'],
      [
        'DELETE',
        `${BASE}/clocks`,
        405,
        'the server does not allow this method on the requested resource',
      ],
      [
        'PATCH',
        `${BASE}/clocks`,
        405,
        'the server does not allow this method on the requested resource',
      ],
      [
        'GET',
        `${BASE}/clocks?watch=true`,
        405,
        'watch is not supported on resources of kind "clocks.sim.fleetyard.dev"',
      ],
      [
        'GET',
        `${BASE}/namespaces/default/clocks/cluster`,
        404,
        'the server could not find the requested resource',
      ],
      ['GET', `${CLOCK}/status`, 404, 'the server could not find the requested resource'],
      ['GET', `${BASE}/timers`, 404, 'the server could not find the requested resource'],
    ];
    for (const [method, path, code, message] of cases) {
      it(`${method} ${path.slice(BASE.length)}: ${code}`, async () => {
        const r = await t.request(
          method,
          path,
          method === 'GET' ? {} : { body: {}, contentType: MERGE },
        );
        assert.equal(r.status, code);
        assert.equal(r.body.kind, 'Status');
        assert.equal(r.body.reason, code === 405 ? 'MethodNotAllowed' : 'NotFound');
        assert.equal(r.body.message, message);
      });
    }
  });
});

describe('a server without a clock control', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it('serves neither the resource nor its group', async () => {
    assert.equal((await t.request('GET', CLOCK)).status, 404);
    assert.equal((await t.request('GET', BASE)).status, 404);
    assert.equal((await t.request('GET', '/apis/sim.fleetyard.dev')).status, 404);
    const groups = (await t.request('GET', '/apis')).body.groups as Json[];
    assert.ok(!groups.some((g) => g.name === 'sim.fleetyard.dev'));
  });
});
