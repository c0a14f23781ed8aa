import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ServiceAccountTokenAuthenticator } from './authenticator.js';
import { parseJws } from './jwt.js';
import { loadOrCreateServiceAccountKey } from './keys.js';
import { legacyTokenGeneratorFromDir } from './legacy-token.js';

describe('legacyTokenGeneratorFromDir', () => {
  let dir: string;
  before(async () => {
    dir = join(await mkdtemp(join(tmpdir(), 'sa-legacy-')), 'pki');
  });
  after(async () => {
    await rm(join(dir, '..'), { recursive: true, force: true });
  });

  it('fails until the API server made its key, then signs tokens the API server accepts', async () => {
    const generate = legacyTokenGeneratorFromDir(dir);
    const robot = { name: 'robot', uid: 'sa-1' };
    await assert.rejects(generate('team', robot, 'robot-token'), /no service account signing key/);
    const key = await loadOrCreateServiceAccountKey(dir); // the API server's start
    const token = await generate('team', robot, 'robot-token');
    assert.deepEqual(parseJws(token).payload, {
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'team',
      'kubernetes.io/serviceaccount/secret.name': 'robot-token',
      'kubernetes.io/serviceaccount/service-account.name': 'robot',
      'kubernetes.io/serviceaccount/service-account.uid': 'sa-1',
      sub: 'system:serviceaccount:team:robot',
    });
    const objects = {
      'serviceaccounts/team/robot': { metadata: { name: 'robot', uid: 'sa-1' } },
      'secrets/team/robot-token': {
        metadata: { name: 'robot-token' },
        data: { token: Buffer.from(token).toString('base64') },
      },
    };
    const auth = new ServiceAccountTokenAuthenticator({
      keys: [key],
      lookup: {
        get: (r, ns, name) =>
          Object.entries(objects).find(([k]) => k === `${r}/${ns}/${name}`)?.[1],
      },
      clock: { now: () => 0 },
    });
    const r = auth.authenticate(token);
    assert.ok(r?.ok);
    assert.equal(r.user.username, 'system:serviceaccount:team:robot');
  });
});
