import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Lifecycle } from './lifecycle.js';

describe('Lifecycle', () => {
  it('starts in order and stops in reverse', async () => {
    const log: string[] = [];
    const lc = new Lifecycle();
    for (const name of ['storage', 'apiserver', 'controllers']) {
      lc.add({
        name,
        start: () => void log.push(`start ${name}`),
        stop: () => void log.push(`stop ${name}`),
      });
    }
    await lc.start();
    await lc.stop();
    await lc.stop();
    assert.deepEqual(log, [
      'start storage',
      'start apiserver',
      'start controllers',
      'stop controllers',
      'stop apiserver',
      'stop storage',
    ]);
  });

  it('stops what started when a later component fails to start', async () => {
    const log: string[] = [];
    const lc = new Lifecycle()
      .add({
        name: 'a',
        start: () => void log.push('start a'),
        stop: () => void log.push('stop a'),
      })
      .add({
        name: 'b',
        start: () => {
          throw new Error('port in use');
        },
        stop: () => void log.push('stop b'),
      });
    await assert.rejects(lc.start(), /port in use/);
    assert.deepEqual(log, ['start a', 'stop a']);
  });

  it('throws the start error, not a stop error, when stopping after it fails too', async () => {
    const lc = new Lifecycle()
      .add({
        name: 'server',
        start: () => undefined,
        stop: () => {
          throw new Error('close failed');
        },
      })
      .add({
        name: 'kubeconfig',
        start: () => {
          throw new Error('ENOSPC: no space left on device, write');
        },
        stop: () => undefined,
      });
    const err = await lc.start().then(
      () => assert.fail('started'),
      (e: unknown) => e as Error & { suppressed?: unknown },
    );
    assert.match(err.message, /ENOSPC/);
    assert.ok(err.suppressed instanceof AggregateError);
  });
});
