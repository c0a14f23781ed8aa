import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseUpArgs } from '../cluster/up-flags.js';
import { clusterSummary, defaultLogFormat, readyText, startupFailure } from './up-command.js';

const root = mkdtempSync(join(tmpdir(), 'fleetyard-up-command-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The error a real call throws. */
async function errorOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not fail');
}

describe('startupFailure', () => {
  it('says where and why for a write that found the disk full (no path in the error)', () => {
    const err = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      errno: -28,
      syscall: 'write',
    });
    assert.equal(startupFailure(err, '/srv/fy'), '/srv/fy: no space left on device');
  });

  it('names the file a temp file stands for, and the target of a failed rename', async () => {
    const erofs = Object.assign(
      new Error("EROFS: read-only file system, open '/srv/fy/.kubeconfig.0123456789ab.tmp'"),
      { code: 'EROFS', syscall: 'open', path: '/srv/fy/.kubeconfig.0123456789ab.tmp' },
    );
    assert.equal(startupFailure(erofs, '/srv/fy'), '/srv/fy/kubeconfig: read-only file system');
    const dir = join(root, 'rename');
    mkdirSync(join(dir, 'kubeconfig'), { recursive: true });
    writeFileSync(join(dir, 'new'), 'x');
    const eisdir = await errorOf(() => rename(join(dir, 'new'), join(dir, 'kubeconfig')));
    assert.equal(
      startupFailure(eisdir, dir),
      `${join(dir, 'kubeconfig')}: illegal operation on a directory`,
    );
  });

  it('names the address of a port in use', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const { port } = busy.address() as { port: number };
    const second = createServer();
    const err = await errorOf(
      () =>
        new Promise<void>((resolve, reject) => {
          second.once('error', reject);
          second.listen(port, '127.0.0.1', resolve);
        }),
    );
    busy.close();
    assert.equal(startupFailure(err, '/srv/fy'), `127.0.0.1:${port}: address already in use`);
  });

  it('puts a SQLite error on the database, and keeps other messages to one redacted line', () => {
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    assert.equal(startupFailure(full, '/srv/fy'), '/srv/fy/state.db: database or disk is full');
    const yaml = new Error('bad indentation at line 4:\n\n    token: s3cr3t\n');
    assert.equal(startupFailure(yaml, '/srv/fy'), 'bad indentation at line 4:');
    assert.equal(startupFailure('token=s3cr3t', '/srv/fy'), 'token=[REDACTED]');
  });
});

describe('defaultLogFormat', () => {
  const cases: [NodeJS.ProcessEnv, boolean, string][] = [
    [{}, true, 'text'],
    [{}, false, 'json'],
    [{ FLEETYARD_LOG_FORMAT: 'json' }, true, 'json'],
    [{ FLEETYARD_LOG_FORMAT: 'text' }, false, 'text'],
    [{ FLEETYARD_LOG_FORMAT: 'yaml' }, false, 'json'],
  ];
  for (const [env, tty, want] of cases) {
    it(`${JSON.stringify(env)}, stderr ${tty ? 'a terminal' : 'a pipe'}: ${want}`, () => {
      assert.equal(defaultLogFormat(env, tty), want);
    });
  }
});

describe('readyText', () => {
  const facts = {
    url: 'https://127.0.0.1:6443',
    kubeconfigPath: '/srv/fy/kubeconfig',
    dashboard: {
      url: 'https://127.0.0.1:6443/ui/',
      login: 'https://127.0.0.1:6443/ui/login?code=c',
    },
  };
  const cluster = clusterSummary(parseUpArgs([]), undefined);

  it('not a terminal: the lines programs parse, the dashboard right after ready', () => {
    const text = readyText(facts, { terminal: false, colors: false, cluster });
    assert.match(
      text,
      /^fleetyard ready url=\S+ kubeconfig=\S+\nfleetyard dashboard url=\S+ login=\S+\n {2}export KUBECONFIG=/,
    );
  });

  it('a terminal: the banner instead, with the same link', () => {
    const text = readyText(facts, { terminal: true, colors: false, cluster });
    assert.match(text, /^fleetyard is up {2}\(3 nodes in 3 zones, clock real\)\n/);
    assert.ok(text.includes(facts.dashboard.login));
    assert.doesNotMatch(text, /fleetyard ready/);
  });
});

describe('clusterSummary', () => {
  const cases: [string[], number | undefined, string][] = [
    [[], undefined, '3 nodes over 3 zones, real'],
    [['--nodes', '0'], undefined, '0 nodes over 3 zones, real'],
    [['--nodes', '7', '--zones', 'x'], undefined, '7 nodes over 1 zones, real'],
    [['--controllers', '*,-kubelet'], undefined, '0 nodes over 3 zones, real'],
    [['--clock', 'virtual', '--speed', 'max'], undefined, '3 nodes over 3 zones, virtual max'],
    [['--nodes', '250'], 250, '250 nodes over 3 zones, real'],
  ];
  for (const [args, expected, want] of cases) {
    it(`${args.join(' ') || 'no flags'}: ${want}`, () => {
      const nodes = expected === undefined ? undefined : { expected, registered: () => 0 };
      const s = clusterSummary(parseUpArgs(args), nodes);
      const speed = s.speed === undefined ? '' : ` ${s.speed}`;
      assert.equal(`${s.nodes} nodes over ${s.zones} zones, ${s.clock}${speed}`, want);
    });
  }
});
