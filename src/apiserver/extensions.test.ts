/**
 * The server's side of {@link ApiExtensions}, with a fake extension (apiserver never imports
 * apiextensions): without one only built-in kinds are served; with one its kinds follow the
 * built-in ones, what it serves at start is served from the first request, a request for a
 * kind that needs preparation gets prepare()'s outcome, and a failed preparation in the
 * background is reported.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ResourceDefinition } from '../api/resource.js';
import { FakeClock } from '../util/clock.js';
import type { ApiExtensions, ApiExtensionsFactory, ApiExtensionsHost } from './extensions.js';
import { startTestServer } from './testing/test-server.js';

function kind(plural: string, kindName: string): ResourceDefinition {
  return {
    group: 'example.com',
    version: 'v1',
    kind: kindName,
    listKind: `${kindName}List`,
    plural,
    singular: kindName.toLowerCase(),
    namespaced: true,
    nameValidation: 'dns-subdomain',
    generation: 'spec',
    statusSubresource: false,
    strategy: {},
  };
}

const GIZMOS = kind('gizmos', 'Gizmo');
const STORED = kind('widgets', 'Widget');

/** A fake extension: serves Gizmo, and Widget once started; prepare fails while `failing`. */
class FakeExtension implements ApiExtensions {
  readonly resources = [GIZMOS];
  failing = false;
  prepared = 0;
  stopped = false;
  readonly #host: ApiExtensionsHost;

  constructor(host: ApiExtensionsHost) {
    this.#host = host;
  }

  needsPreparation(def: ResourceDefinition): boolean {
    return def.group === 'example.com';
  }

  async prepare(): Promise<void> {
    this.prepared++;
    if (this.failing) throw new Error('tools did not load');
  }

  async start(): Promise<void> {
    this.#host.registry.add(STORED);
  }

  stop(): void {
    this.stopped = true;
  }
}

function fake(): { factory: ApiExtensionsFactory; made: () => FakeExtension } {
  let made: FakeExtension | undefined;
  return {
    factory: (host) => {
      made = new FakeExtension(host);
      return made;
    },
    made: () => {
      assert.ok(made !== undefined, 'the server did not build its extension');
      return made;
    },
  };
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

describe('API extensions', () => {
  it('without one, serves built-in kinds only (no CRD kind)', async () => {
    const t = await startTestServer();
    try {
      assert.equal((await t.request('GET', CRDS)).status, 404);
      const groups = await t.request('GET', '/apis', { accept: 'application/json' });
      const names = (groups.body.groups as Array<{ name: string }>).map((g) => g.name);
      assert.ok(!names.includes('apiextensions.k8s.io'), names.join(', '));
    } finally {
      await t.close();
    }
  });

  it('adds its kinds after the built-in ones and serves what it started with from the first request', async () => {
    const { factory } = fake();
    const t = await startTestServer({ extensions: factory });
    try {
      const plurals = t.server.registry.all().map((d) => d.plural);
      assert.deepEqual(plurals.slice(-2), ['gizmos', 'widgets']);
      assert.ok(plurals.indexOf('configmaps') < plurals.indexOf('gizmos'));
      for (const path of ['/apis/example.com/v1/gizmos', '/apis/example.com/v1/widgets']) {
        assert.equal((await t.request('GET', path)).status, 200, path);
      }
    } finally {
      await t.close();
    }
  });

  it('answers a request that needs preparation with prepare()’s outcome, and leaves built-in kinds alone', async () => {
    const { factory, made } = fake();
    const t = await startTestServer({ extensions: factory });
    try {
      const extension = made();
      const cases = [
        { failing: true, path: '/apis/example.com/v1/gizmos', status: 500, prepares: 1 },
        { failing: true, path: '/api/v1/namespaces/default/configmaps', status: 200, prepares: 0 },
        { failing: false, path: '/apis/example.com/v1/gizmos', status: 200, prepares: 1 },
      ];
      for (const c of cases) {
        extension.failing = c.failing;
        const before = extension.prepared;
        const r = await t.request('GET', c.path);
        assert.equal(r.status, c.status, `${c.path}: ${r.text}`);
        if (c.status === 500) assert.match(String(r.body.message), /tools did not load/);
        assert.equal(extension.prepared - before, c.prepares, c.path);
      }
    } finally {
      await t.close();
    }
    assert.equal(made().stopped, true);
  });

  it('prepares in the background after listening, and reports a failure there', async () => {
    const clock = new FakeClock();
    const errors: string[] = [];
    const { factory, made } = fake();
    const t = await startTestServer({
      clock,
      extensions: factory,
      server: { onError: (message) => errors.push(message) },
    });
    try {
      made().failing = true;
      await clock.step(1000);
      assert.equal(made().prepared, 1);
      assert.deepEqual(errors, ['api extensions: preparation failed']);
    } finally {
      await t.close();
    }
  });
});
