/**
 * Least privilege of the celld operator, shown rather than asserted (issue 18, scope 3).
 * `fleetyard up` runs the operator as `celld-system/celld-operator` with exactly the RBAC of
 * `deploy/operator/`, and here with an audit log of that user's requests only (upstream's
 * `--audit-log-path`/`--audit-policy-file`, level Metadata). One cluster (`--nodes 6`, virtual
 * clock at speed 1) is driven through what the operator's e2e suites exercise:
 * a PersistentFleet created, rolled to a new image, healed after a lost volume and after its
 * member's node is down past the 10-minute replacement delay (`fleetyard clock advance`),
 * scaled out and in; a Bucket fleet on a Deployment and an Ordered one (scheduling gates
 * lifted); all deleted.
 *
 * - Sufficiency: none of the operator's recorded requests was refused.
 * - Necessity: for each rule of deploy/ (each rule of each role, in its binding's scope), some
 *   request the operator made is allowed by that rule and by no other rule it holds (deploy/
 *   or the bootstrap policy), and the server's RBAC authorizer refuses that request once the
 *   rule is removed. A rule without such a request fails, named: either the run misses a
 *   behaviour or deploy/ grants more than the operator uses.
 * - One removal end to end: the ClusterRole re-applied without its status rule, the
 *   operator's next status write is a 403 in the audit log, and restoring it lets the fleet
 *   report Ready.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  apply,
  type FleetEnv,
  fleet,
  fleetEnvForFile,
  fleetEvents,
  getFleet,
  IMAGE_V2,
  isReady,
  memberPods,
  patchFleet,
  serviceAccount,
  sleep,
  waitReady,
} from './testing/celld-fixtures.js';
import { REPO_ROOT } from './testing/cluster.js';
import { pollUntil } from './testing/kubectl-fixtures.js';
import {
  auditFiles,
  bootstrapObjects,
  clusterRoleWithout,
  deployObjects,
  describeEvent,
  evidenceTable,
  fleetyard,
  OPERATOR_USER,
  type OperatorRequests,
  operatorRequests,
  readAudit,
} from './testing/operator-rbac.js';
import {
  authorizerOver,
  describeRequest,
  grantedRules,
  necessity,
  type RuleEvidence,
  withoutRule,
} from './testing/rbac-necessity.js';

const NS = 'default';
const NAME = 'orders';
const BUCKET_EXAMPLE = `${REPO_ROOT}/examples/celld-bucket-fleet.yaml`;

const audit = auditFiles();
const env = fleetEnvForFile(['--nodes=6', '--zones=a,b,c', '--clock=virtual', ...audit.args]);
after(() => audit.cleanup());

const DEPLOY = deployObjects();
const BOOTSTRAP = bootstrapObjects();
const RULES = grantedRules(DEPLOY, OPERATOR_USER);
const OTHERS = grantedRules(BOOTSTRAP, OPERATOR_USER);

/** The operator's requests during the behaviour run (before any rule is removed). */
let run: OperatorRequests | undefined;
let runEvents = 0;

function recorded(): OperatorRequests {
  assert.ok(run, 'the behaviour run did not complete');
  return run;
}

async function claimUid(e: FleetEnv, claim: string): Promise<string> {
  return e.k.ok(['get', 'pvc', claim, '-n', NS, '-o', 'jsonpath={.metadata.uid}']);
}

describe("the celld operator's behaviours under deploy/'s RBAC", () => {
  it('a PersistentFleet on node-local disks reaches Ready', async () => {
    const e = env();
    await apply(
      e,
      serviceAccount(`${NAME}-celld`, NS),
      fleet({
        name: NAME,
        namespace: NS,
        bucket: 'orders-rbac',
        replicas: 3,
        storageClassName: 'standard',
        mode: 'Strict',
      }),
    );
    await waitReady(e, NS, NAME, 30_000);
  });

  it('rolls every member to a new image', async () => {
    const e = env();
    await patchFleet(e, NS, NAME, { runtimeImage: IMAGE_V2 });
    await pollUntil(
      'every member on the new image and Ready',
      async () => {
        const pods = await memberPods(e, NS, NAME);
        const done =
          pods.length === 3 &&
          pods.every((p) => isReady(p) && p.spec?.containers[0]?.image === IMAGE_V2);
        return done ? true : undefined;
      },
      40_000,
      100,
    );
    await waitReady(e, NS, NAME, 30_000);
  });

  it('replaces a member whose volume is lost (MemberDiskLost)', async () => {
    const e = env();
    const before = await claimUid(e, `data-${NAME}-2`);
    await fleetyard(e.cluster.kubeconfig, 'chaos', 'lose-volume', `data-${NAME}-2`, '-n', NS);
    await pollUntil(
      'MemberDiskLost',
      async () =>
        (await fleetEvents(e, NS, NAME, 'MemberDiskLost')).length > 0 ? true : undefined,
      30_000,
      200,
    );
    await waitReady(e, NS, NAME, 60_000);
    assert.notEqual(await claimUid(e, `data-${NAME}-2`), before, 'not on a fresh disk');
  });

  it('replaces a member whose node is down past the replacement delay (virtual clock)', async () => {
    const e = env();
    const pod = `${NAME}-1`;
    const node = await e.k.ok(['get', 'pod', pod, '-n', NS, '-o', 'jsonpath={.spec.nodeName}']);
    assert.ok(node, `${pod} has no node`);
    const claimBefore = await claimUid(e, `data-${pod}`);
    await fleetyard(e.cluster.kubeconfig, 'chaos', 'node-down', node);
    // Down at t: evicted at about t+6 min, force-deleted 2.5 min later, replaced 10 min after
    // its pod was recreated (docs/design/operator.md §6): about t+19 min.
    await fleetyard(e.cluster.kubeconfig, 'clock', 'advance', '25m');
    await pollUntil(
      'MemberReplaced',
      async () =>
        (await fleetEvents(e, NS, NAME, 'MemberReplaced')).length > 0 ? true : undefined,
      30_000,
      200,
    );
    await waitReady(e, NS, NAME, 60_000);
    const claimAfter = await claimUid(e, `data-${pod}`);
    assert.notEqual(claimAfter, claimBefore, 'the member is not on a fresh disk');
    assert.ok((await fleetEvents(e, NS, NAME, 'MemberForceDeleted')).length > 0);
    await fleetyard(e.cluster.kubeconfig, 'chaos', 'node-up', node);
  });

  // After the heals: the claim a scale-in keeps pins a node (node-local disk), and a heal
  // on the remaining nodes would then have no room under Strict placement.
  it('scales out to 4 and back in to 3', async () => {
    const e = env();
    await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=4']);
    await waitReady(e, NS, NAME, 30_000);
    await e.k.ok(['scale', 'cf', NAME, '-n', NS, '--replicas=3']);
    await waitReady(e, NS, NAME, 30_000);
    await pollUntil('3 member pods', async () =>
      (await memberPods(e, NS, NAME)).length === 3 ? true : undefined,
    );
  });

  it('a Bucket fleet on a Deployment and an Ordered one reach Ready', async () => {
    const e = env();
    await e.k.ok(['apply', '-f', BUCKET_EXAMPLE]);
    await apply(
      e,
      serviceAccount('ranks-celld', NS),
      fleet({
        name: 'ranks',
        namespace: NS,
        bucket: 'ranks-rbac',
        replicas: 3,
        profile: 'Bucket',
        bucketWorkload: 'Ordered',
      }),
    );
    await waitReady(e, NS, 'events', 30_000);
    await waitReady(e, NS, 'ranks', 30_000);
  });

  it('deletes every fleet and its children', async () => {
    const e = env();
    await e.k.ok(['delete', 'cf', NAME, 'events', 'ranks', '-n', NS, '--wait=true'], {
      timeoutMs: 60_000,
    });
    const left = await e.k.ok([
      'get',
      'statefulsets,deployments,pvc,services',
      '-n',
      NS,
      '-l',
      'celld.fleetyard.dev/fleet',
      '-o',
      'name',
    ]);
    assert.equal(left, '', `children left behind:\n${left}`);
    // The log's writer drains its queue in the background: let it catch up.
    await sleep(1_000);
    const events = readAudit(audit.logPath);
    runEvents = events.length;
    run = operatorRequests(events);
  });
});

describe('sufficiency: deploy/ allows every request the operator made', () => {
  it('no request of the operator was refused', () => {
    const r = recorded();
    assert.ok(r.all.length > 0, 'no request of the operator in the audit log');
    assert.deepEqual(r.refused.map(describeEvent), []);
  });

  it('every resource request carries the authorizer decision "allow"', () => {
    const undecided = recorded().all.filter(
      (e) =>
        e.objectRef !== undefined && e.annotations?.['authorization.k8s.io/decision'] !== 'allow',
    );
    assert.deepEqual(undecided.map(describeEvent), []);
  });

  it("the server's RBAC over deploy/ and the bootstrap policy allows each of them", () => {
    const authorizer = authorizerOver([...BOOTSTRAP, ...DEPLOY]);
    const denied = recorded()
      .allowed.filter((a) => authorizer.authorize(a).decision !== 'Allow')
      .map(describeRequest);
    assert.deepEqual(denied, []);
  });
});

describe('necessity: removing any rule of deploy/ refuses a request the operator made', () => {
  let evidence: RuleEvidence[] | undefined;
  const refusedWithout = new Map<string, string[]>();
  const analysis = (): RuleEvidence[] => {
    if (evidence !== undefined) return evidence;
    const allowed = recorded().allowed;
    evidence = necessity(RULES, OTHERS, allowed);
    for (const rule of RULES) {
      const without = authorizerOver([...BOOTSTRAP, ...withoutRule(DEPLOY, rule)]);
      const refused = allowed.filter((a) => without.authorize(a).decision !== 'Allow');
      refusedWithout.set(rule.id, [...new Set(refused.map(describeRequest))].sort());
    }
    return evidence;
  };

  it('prints the per-rule evidence', (t) => {
    t.diagnostic(`\n${evidenceTable(analysis(), refusedWithout, recorded().allowed)}`);
    assert.equal(analysis().length, RULES.length);
  });

  for (const rule of RULES) {
    it(`${rule.id} (${rule.namespace || 'cluster-wide'}) is needed`, () => {
      const e = analysis().find((x) => x.rule === rule);
      assert.ok(e);
      assert.ok(
        e.exclusive.length > 0,
        `${rule.id} ${JSON.stringify(rule.rule)} in ${rule.namespace || 'every namespace'}: no recorded request of the operator needs it (requests it allows, all allowed elsewhere too: ${JSON.stringify(e.matched)})`,
      );
      // The same, by the server's authorizer over the whole policy minus this rule.
      const refused = refusedWithout.get(rule.id) ?? [];
      assert.ok(refused.length > 0, `removing ${rule.id} refuses nothing`);
      assert.deepEqual(refused, [...e.exclusive].sort());
    });
  }
});

describe('one removal end to end: the ClusterRole without celldfleets/status', () => {
  const canI = async (e: FleetEnv) =>
    (
      await e.k.run([
        'auth',
        'can-i',
        'update',
        'celldfleets.celld.fleetyard.dev',
        '--subresource=status',
        '-n',
        NS,
        `--as=${OPERATOR_USER.username}`,
      ])
    ).stdout.trim();

  it("the operator's next status write is refused with 403, and restoring the rule heals it", async () => {
    const e = env();
    recorded();
    assert.equal(await canI(e), 'yes');
    await e.k.ok(['apply', '-f', '-'], {
      input: JSON.stringify(clusterRoleWithout('celldfleets/status')),
    });
    assert.equal(await canI(e), 'no');
    await apply(
      e,
      serviceAccount('probe-celld', NS),
      fleet({ name: 'probe', namespace: NS, bucket: 'probe-rbac', replicas: 3, profile: 'Bucket' }),
    );
    const denied = await pollUntil(
      'a refused status write of the operator',
      async () =>
        operatorRequests(readAudit(audit.logPath).slice(runEvents)).refused.find(
          (ev) => ev.verb === 'update' && ev.objectRef?.subresource === 'status',
        ),
      30_000,
      200,
    );
    assert.equal(denied.responseStatus?.code, 403, describeEvent(denied));
    assert.equal(denied.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.equal((await getFleet(e, NS, 'probe')).status?.observedGeneration, undefined);

    const original = DEPLOY.find((o) => o.kind === 'ClusterRole');
    await e.k.ok(['apply', '-f', '-'], { input: JSON.stringify(original) });
    assert.equal(await canI(e), 'yes');
    // The failed reconciles backed off (client-go's per-item limiter doubles up to 1000 s);
    // a change to the fleet, as a user's next edit, queues it at once.
    await e.k.ok(['annotate', 'cf', 'probe', '-n', NS, 'example.com/retry=1']);
    await waitReady(e, NS, 'probe', 60_000);
    await e.k.ok(['delete', 'cf', 'probe', '-n', NS, '--wait=true'], { timeoutMs: 60_000 });
  });
});
