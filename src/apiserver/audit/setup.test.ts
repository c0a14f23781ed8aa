import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PolicyError } from './policy.js';
import { loadPolicyFile, openAuditor } from './setup.js';
import { dev, request } from './testing/fixtures.js';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'fy-audit-setup-'));
  dirs.push(d);
  return d;
}

describe('openAuditor', () => {
  it('is off without a log path', async () => {
    assert.equal(await openAuditor({}), undefined);
    assert.equal(await openAuditor({ logPath: '' }), undefined);
  });

  it('uses the default policy without a policy file', async () => {
    const dir = await tempDir();
    const auditor = await openAuditor({ logPath: join(dir, 'a', 'audit.log') });
    assert.ok(auditor !== undefined);
    auditor.begin({ ...request('GET', '/healthz'), user: dev }).finish(200);
    auditor.begin({ ...request('GET', '/api/v1/namespaces/x/secrets/s'), user: dev }).finish(200);
    await auditor.close();
    const lines = (await readFile(join(dir, 'a', 'audit.log'), 'utf8')).trimEnd().split('\n');
    assert.deepEqual(
      lines.map((l) => [JSON.parse(l).level, JSON.parse(l).stage]),
      [['Metadata', 'ResponseComplete']],
    );
  });

  it('reads a policy file', async () => {
    const dir = await tempDir();
    const policyFile = join(dir, 'policy.yaml');
    await writeFile(
      policyFile,
      'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: Request}]\n',
    );
    const auditor = await openAuditor({ logPath: join(dir, 'audit.log'), policyFile });
    const a = auditor!.begin({ ...request('GET', '/healthz'), user: dev });
    assert.equal(a.level, 'Request');
    await auditor!.close();
  });
});

describe('loadPolicyFile errors name the file', () => {
  it('a missing file', async () => {
    const path = join(await tempDir(), 'nope.yaml');
    await assert.rejects(loadPolicyFile(path), (err: unknown) => {
      assert.ok(err instanceof PolicyError);
      assert.ok(err.message.startsWith(`failed to read file path "${path}": ENOENT`));
      return true;
    });
  });
  it('an invalid policy', async () => {
    const path = join(await tempDir(), 'p.yaml');
    await writeFile(path, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: []\n');
    await assert.rejects(
      loadPolicyFile(path),
      new PolicyError(`loaded illegal policy with 0 rules: from file ${path}`),
    );
  });
});
