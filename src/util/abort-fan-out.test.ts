import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { childSignal, onAbort } from './abort-fan-out.js';

describe('onAbort', () => {
  const cases: { name: string; subscribe: number; unsubscribe: number; want: number }[] = [
    { name: 'every subscriber is called once', subscribe: 3, unsubscribe: 0, want: 3 },
    { name: 'unsubscribed ones are not', subscribe: 3, unsubscribe: 2, want: 1 },
    { name: '1,000 subscribers', subscribe: 1000, unsubscribe: 0, want: 1000 },
  ];
  for (const c of cases) {
    it(`${c.name}, through one listener on the signal`, () => {
      const ac = new AbortController();
      let calls = 0;
      const offs = Array.from({ length: c.subscribe }, () =>
        onAbort(ac.signal, () => {
          calls++;
        }),
      );
      for (const off of offs.slice(0, c.unsubscribe)) off();
      assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
      ac.abort();
      ac.abort();
      assert.equal(calls, c.want);
      assert.equal(getEventListeners(ac.signal, 'abort').length, 0);
    });
  }

  it('calls at once on an aborted signal and adds no listener', () => {
    const signal = AbortSignal.abort();
    let calls = 0;
    onAbort(signal, () => calls++)();
    assert.equal(calls, 1);
    assert.equal(getEventListeners(signal, 'abort').length, 0);
  });

  it('the same function subscribed twice is called twice', () => {
    const ac = new AbortController();
    let calls = 0;
    const fn = (): void => {
      calls++;
    };
    onAbort(ac.signal, fn);
    onAbort(ac.signal, fn);
    ac.abort();
    assert.equal(calls, 2);
  });
});

describe('childSignal', () => {
  it('one child per key, aborted with the parent, through one listener on it', () => {
    const ac = new AbortController();
    const keys = Array.from({ length: 1000 }, (_, k) => `node-${k}`);
    const kids = keys.map((k) => childSignal(ac.signal, k));
    assert.equal(childSignal(ac.signal, 'node-7'), kids[7]);
    assert.equal(getEventListeners(ac.signal, 'abort').length, 1);
    assert.ok(kids.every((s) => !s.aborted));
    ac.abort(new Error('stop'));
    assert.ok(kids.every((s) => s.aborted && (s.reason as Error).message === 'stop'));
  });

  it('a child of an aborted parent is aborted', () => {
    assert.equal(childSignal(AbortSignal.abort(), 'x').aborted, true);
  });
});
