import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ComponentTokens } from './component-tokens.js';

describe('ComponentTokens', () => {
  it('authenticates each component token as its own user, and nothing else', () => {
    const tokens = new ComponentTokens();
    const scheduler = { username: 'system:kube-scheduler', groups: ['system:authenticated'] };
    const node = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
    const a = tokens.tokenFor(scheduler);
    const b = tokens.tokenFor(node);
    assert.notEqual(a, b);
    assert.equal(tokens.tokenFor(scheduler), a, 'one token per user for the process');
    assert.deepEqual(tokens.authenticate(a), scheduler);
    assert.deepEqual(tokens.authenticate(b), node);
    assert.equal(tokens.authenticate(`${a}x`), undefined);
    assert.equal(tokens.authenticate(''), undefined);
    assert.ok(tokens.issued(tokens.authenticate(a) ?? scheduler));
    assert.ok(!tokens.issued({ ...scheduler }), 'only the objects it issued');
  });
});
