/**
 * `fleetyard operator`: its flags (table-driven: defaults, Go syntax, every refusal), the
 * connection choice, and the process with a stub reconciler: probes and metrics served,
 * a clean stop on the signal, exit 1 when the reconciler dies, exit 2 on a bad flag.
 * The stub never contacts the API server (informers start on first use), so no cluster runs.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { Gauge, type Registry } from 'prom-client';
import type { ControllerContext, ControllerDefinition } from '../controller/context.js';
import {
  chooseConnection,
  formatBindAddress,
  type OperatorFlags,
  parseOperatorFlags,
} from './operator-flags.js';
import { runOperatorCli } from './operator-run.js';

describe('parseOperatorFlags: accepted', () => {
  const cases: { args: string[]; want: Partial<OperatorFlags> }[] = [
    {
      args: [],
      want: {
        memberReplacementDelayMs: 600_000,
        networkPolicyEnforced: false,
        localTest: false,
        leaderElect: true,
        metrics: { port: 8080 },
        healthProbes: { port: 8081 },
        logLevel: 'info',
        help: false,
      },
    },
    { args: ['--member-replacement-delay=90s'], want: { memberReplacementDelayMs: 90_000 } },
    { args: ['--member-replacement-delay', '1h30m'], want: { memberReplacementDelayMs: 5.4e6 } },
    { args: ['--member-replacement-delay=1m'], want: { memberReplacementDelayMs: 60_000 } },
    { args: ['--member-replacement-delay=1.5m'], want: { memberReplacementDelayMs: 90_000 } },
    { args: ['--network-policy-enforced'], want: { networkPolicyEnforced: true } },
    { args: ['--network-policy-enforced=true'], want: { networkPolicyEnforced: true } },
    { args: ['--network-policy-enforced=false'], want: { networkPolicyEnforced: false } },
    { args: ['--local-test'], want: { localTest: true } },
    { args: ['--leader-elect', 'false'], want: { leaderElect: false } },
    { args: ['--leader-elect=false'], want: { leaderElect: false } },
    { args: ['--leader-elect'], want: { leaderElect: true } },
    { args: ['--metrics-bind-address=0'], want: { metrics: undefined } },
    {
      args: ['--metrics-bind-address', '127.0.0.1:9090'],
      want: { metrics: { host: '127.0.0.1', port: 9090 } },
    },
    { args: ['--metrics-bind-address=[::1]:8443'], want: { metrics: { host: '::1', port: 8443 } } },
    { args: ['--health-probe-bind-address=0'], want: { healthProbes: undefined } },
    { args: ['--namespace=team-a'], want: { namespace: 'team-a' } },
    { args: ['--operator-namespace', 'ops'], want: { operatorNamespace: 'ops' } },
    { args: ['--log-level=debug'], want: { logLevel: 'debug' } },
    { args: ['--kubeconfig=k', '--context', 'c'], want: { kubeconfig: 'k', context: 'c' } },
    { args: ['--help'], want: { help: true } },
  ];
  for (const c of cases) {
    it(c.args.join(' ') || '(defaults)', () => {
      const flags = parseOperatorFlags(c.args);
      for (const [key, value] of Object.entries(c.want)) {
        assert.deepEqual(flags[key as keyof OperatorFlags], value, key);
      }
    });
  }
});

describe('parseOperatorFlags: refused', () => {
  const cases: { args: string[]; error: RegExp }[] = [
    { args: ['--member-replacement-delay=30s'], error: /under the minimum of 1m/ },
    { args: ['--member-replacement-delay=59.999s'], error: /under the minimum of 1m/ },
    { args: ['--member-replacement-delay=0'], error: /under the minimum of 1m/ },
    { args: ['--member-replacement-delay=10'], error: /want a Go duration such as 10m/ },
    { args: ['--member-replacement-delay=10 minutes'], error: /want a Go duration/ },
    { args: ['--member-replacement-delay=-5m'], error: /want a Go duration/ },
    { args: ['--member-replacement-delay=600h'], error: /over the maximum of 576h0m0s/ },
    { args: ['--network-policy-enforced=yes'], error: /--network-policy-enforced "yes"/ },
    { args: ['--leader-elect=maybe'], error: /--leader-elect "maybe": want true or false/ },
    { args: ['--metrics-bind-address=8080'], error: /want host:port, :port or 0/ },
    { args: ['--metrics-bind-address=:70000'], error: /--metrics-bind-address ":70000"/ },
    { args: ['--health-probe-bind-address=::1:8081'], error: /--health-probe-bind-address/ },
    {
      args: ['--metrics-bind-address=:9000', '--health-probe-bind-address=127.0.0.1:9000'],
      error: /both name port 9000/,
    },
    { args: ['--namespace=Team_A'], error: /invalid --namespace "Team_A"/ },
    { args: ['--operator-namespace=-x'], error: /invalid --operator-namespace/ },
    { args: ['--log-level=trace'], error: /invalid --log-level trace/ },
    { args: ['--unknown'], error: /Unknown option '--unknown'/ },
    { args: ['extra'], error: /Unexpected argument 'extra'/ },
  ];
  for (const c of cases) {
    it(c.args.join(' '), () => {
      assert.throws(() => parseOperatorFlags(c.args), c.error);
    });
  }
});

describe('chooseConnection', () => {
  const inPod = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
  it('--kubeconfig wins, even in a Pod', () => {
    assert.deepEqual(chooseConnection({ kubeconfig: 'k', context: 'c' }, inPod, '/w'), {
      kind: 'kubeconfig',
      path: '/w/k',
      context: 'c',
    });
  });
  it('in a Pod: in-cluster', () => {
    assert.deepEqual(chooseConnection({}, inPod), { kind: 'in-cluster' });
  });
  it('in a Pod, --context alone is refused', () => {
    assert.throws(() => chooseConnection({ context: 'c' }, inPod), /add --kubeconfig/);
  });
  it('elsewhere: ./.fleetyard/kubeconfig', () => {
    assert.deepEqual(chooseConnection({}, {}, '/w'), {
      kind: 'kubeconfig',
      path: '/w/.fleetyard/kubeconfig',
    });
  });
});

it('formatBindAddress writes back what parses', () => {
  for (const text of ['0', ':8080', '127.0.0.1:8080', '[::1]:8080']) {
    const flags = parseOperatorFlags([`--metrics-bind-address=${text}`]);
    assert.equal(formatBindAddress(flags.metrics), text);
  }
});

describe('runOperatorCli with a stub operator', () => {
  let dir = '';
  let kubeconfig = '';
  const silent = pino({ level: 'silent' });
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'operator-cli-'));
    kubeconfig = join(dir, 'kubeconfig');
    // Never contacted: the stub opens no informer and writes nothing.
    await writeFile(
      kubeconfig,
      `apiVersion: v1
clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1'}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const args = (): string[] => [
    `--kubeconfig=${kubeconfig}`,
    '--leader-elect=false',
    '--metrics-bind-address=127.0.0.1:0',
    '--health-probe-bind-address=127.0.0.1:0',
  ];

  it('serves probes and metrics, then stops cleanly on the signal', async () => {
    const stop = new AbortController();
    let ports: { metrics?: number; healthProbes?: number } = {};
    let seen: unknown;
    const stub = (options: unknown): ControllerDefinition => {
      seen = options;
      return {
        name: 'celld-operator',
        start: untilStopped,
        registerMetrics: (registry: Registry) => {
          new Gauge({ name: 'celld_fleet_stub', help: 'stub', registers: [registry] }).set(3);
        },
      };
    };
    const running = runOperatorCli([...args(), '--network-policy-enforced'], stop.signal, {
      operator: stub,
      log: silent,
      env: {},
      onListening: (p) => {
        ports = p;
      },
    });
    await waitFor(() => ports.healthProbes !== undefined);
    for (const path of ['/healthz', '/readyz']) {
      const res = await fetch(`http://127.0.0.1:${ports.healthProbes}${path}`);
      assert.equal(res.status, 200);
      assert.equal(await res.text(), 'ok');
    }
    assert.equal((await fetch(`http://127.0.0.1:${ports.healthProbes}/nope`)).status, 404);
    // registerMetrics runs once the manager started: poll for the stub's gauge.
    await waitFor(async () => (await scrape(ports.metrics)).includes('celld_fleet_stub 3'));
    const text = await scrape(ports.metrics);
    assert.match(text, /process_resident_memory_bytes/);
    assert.deepEqual(seen, {
      memberReplacementDelayMs: 600_000,
      networkPolicyEnforced: true,
      localTest: false,
      operatorNamespace: 'celld-system',
    });
    stop.abort();
    assert.equal(await running, 0);
    await assert.rejects(fetch(`http://127.0.0.1:${ports.healthProbes}/healthz`));
  });

  it("in a Pod: connects in-cluster and runs in the Pod's namespace", async () => {
    const sa = join(dir, 'serviceaccount');
    await mkdir(sa);
    await writeFile(join(sa, 'token'), 'token');
    await writeFile(join(sa, 'ca.crt'), 'ca');
    await writeFile(join(sa, 'namespace'), 'ops');
    const stop = new AbortController();
    let seen: { operatorNamespace?: string } = {};
    const code = runOperatorCli(
      ['--leader-elect=false', '--metrics-bind-address=0', '--health-probe-bind-address=0'],
      stop.signal,
      {
        operator: (options) => {
          seen = options;
          stop.abort();
          return { name: 'celld-operator', start: untilStopped };
        },
        env: { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: '1' },
        serviceAccountDir: sa,
        log: silent,
      },
    );
    assert.equal(await code, 0);
    assert.equal(seen.operatorNamespace, 'ops');
  });

  it('exits 1 when the operator fails, 2 on a bad flag', async () => {
    const failing = (): ControllerDefinition => ({
      name: 'celld-operator',
      start: () => Promise.reject(new Error('boom')),
    });
    const code = await runOperatorCli(args(), new AbortController().signal, {
      operator: failing,
      log: silent,
      env: {},
    });
    assert.equal(code, 1);
    let stderr = '';
    const bad = await runOperatorCli(
      ['--member-replacement-delay=30s'],
      new AbortController().signal,
      { operator: failing, log: silent },
      { stdout: () => {}, stderr: (s) => (stderr += s) },
    );
    assert.equal(bad, 2);
    assert.match(stderr, /^fleetyard operator: --member-replacement-delay 30s is under/);
    const inPod = { KUBERNETES_SERVICE_HOST: 'h', KUBERNETES_SERVICE_PORT: '443' };
    const context = await runOperatorCli(
      ['--context=x'],
      new AbortController().signal,
      { operator: failing, log: silent, env: inPod },
      { stdout: () => {}, stderr: () => {} },
    );
    assert.equal(context, 2);
  });
});

/** A stub operator's start: runs until the manager stops it, as a real one does. */
function untilStopped(ctx: ControllerContext): Promise<void> {
  return new Promise((done) => ctx.signal.addEventListener('abort', () => done(), { once: true }));
}

async function scrape(port: number | undefined): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  assert.equal(res.status, 200);
  return res.text();
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
