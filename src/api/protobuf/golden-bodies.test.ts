/**
 * Golden fixtures: request bodies captured from the real kubectl 1.33 (protobuf, since
 * kubernetes/kubernetes#125314) and kubectl 1.31 (JSON) running the same commands against a
 * recording server (`testing/capture-kubectl.ts`; `testdata/README.md` lists the commands).
 * Decoding each 1.33 body must give exactly the 1.31 body: the same object, and even the same
 * key order, since both are Go's `encoding/json` view of the same Go value.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { decodeKubernetesProtobuf } from './decode.js';

interface Fixture {
  readonly name: string;
  readonly command: string;
  readonly apiVersion: string;
  readonly kind: string;
  /**
   * Fields that legitimately differ between the two captures, with why; both sides must match
   * the pattern, and are then compared with the field blanked out.
   */
  readonly differs?: {
    readonly field: 'metadata.name';
    readonly pattern: RegExp;
    readonly why: string;
  };
}

const FIXTURES: readonly Fixture[] = [
  { name: 'create-namespace', command: 'create namespace x', apiVersion: 'v1', kind: 'Namespace' },
  {
    name: 'create-configmap',
    command: 'create configmap c --from-literal=a=b --from-literal=c=d',
    apiVersion: 'v1',
    kind: 'ConfigMap',
  },
  {
    name: 'create-configmap-from-file',
    command: 'create configmap files --from-file=bin.dat --from-file=text.txt',
    apiVersion: 'v1',
    kind: 'ConfigMap',
  },
  {
    name: 'create-secret-generic',
    command: 'create secret generic s --from-literal=k=v',
    apiVersion: 'v1',
    kind: 'Secret',
  },
  {
    name: 'create-secret-docker-registry',
    command:
      'create secret docker-registry reg --docker-server=r.example --docker-username=u --docker-password=p --docker-email=e@x',
    apiVersion: 'v1',
    kind: 'Secret',
  },
  {
    name: 'create-deployment',
    command: 'create deployment web --image=nginx:1.27 --replicas=2 --port=80 -- sleep 10',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
  },
  {
    name: 'create-deployment-multi-image',
    command: 'create deployment multi --image=nginx --image=busybox',
    apiVersion: 'apps/v1',
    kind: 'Deployment',
  },
  {
    name: 'create-service-clusterip',
    command: 'create service clusterip svc --tcp=80:8080',
    apiVersion: 'v1',
    kind: 'Service',
  },
  {
    name: 'create-service-nodeport',
    command: 'create service nodeport np --tcp=80:8080 --node-port=30080',
    apiVersion: 'v1',
    kind: 'Service',
  },
  {
    name: 'create-service-loadbalancer',
    command: 'create service loadbalancer lb --tcp=443:8443',
    apiVersion: 'v1',
    kind: 'Service',
  },
  {
    name: 'create-service-externalname',
    command: 'create service externalname ext --external-name=example.com',
    apiVersion: 'v1',
    kind: 'Service',
  },
  {
    name: 'create-serviceaccount',
    command: 'create serviceaccount sa',
    apiVersion: 'v1',
    kind: 'ServiceAccount',
  },
  {
    name: 'create-pdb',
    command: 'create pdb p --selector=app=web --min-available=1',
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
  },
  {
    name: 'create-pdb-max-unavailable',
    command: 'create pdb p2 --selector=app=x --max-unavailable=50%',
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
  },
  {
    name: 'create-quota',
    command:
      'create quota q --hard=cpu=1,memory=1Gi,pods=2,count/configmaps=5 --scopes=NotBestEffort,NotTerminating',
    apiVersion: 'v1',
    kind: 'ResourceQuota',
  },
  {
    name: 'create-role',
    command: 'create role r --verb=get,list --resource=pods,deployments.apps --resource-name=a',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
  },
  {
    name: 'create-clusterrole',
    command: 'create clusterrole cr --verb=get --resource=pods --non-resource-url=/healthz',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
  },
  {
    name: 'create-clusterrole-aggregation',
    command: 'create clusterrole agg --aggregation-rule=rbac.example.com/aggregate=true',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
  },
  {
    name: 'create-rolebinding',
    command: 'create rolebinding rb --role=r --user=u --group=g --serviceaccount=default:sa',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
  },
  {
    name: 'create-clusterrolebinding',
    command: 'create clusterrolebinding crb --clusterrole=cr --user=u --serviceaccount=default:sa',
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
  },
  {
    name: 'drain-delete-options',
    command: 'drain node1 --force --disable-eviction --grace-period=5 (the DELETE of pod p1)',
    apiVersion: 'v1',
    kind: 'DeleteOptions',
  },
  {
    name: 'debug-copy-rich-pod',
    command:
      'debug rich --copy-to=rich-copy --image=busybox:1.36 --container=dbg --profile=legacy --share-processes=false --keep-labels --keep-annotations --keep-liveness --keep-readiness --keep-startup --attach=false (GET of pod rich answered with debug-copy-rich-pod.source.json)',
    apiVersion: 'v1',
    kind: 'Pod',
  },
  {
    name: 'debug-node',
    command: 'debug node/node1 --image=busybox:1.36 --profile=legacy',
    apiVersion: 'v1',
    kind: 'Pod',
    differs: {
      field: 'metadata.name',
      pattern: /^node-debugger-node1-[a-z0-9]{5}$/,
      why: 'kubectl names the debugging pod with a random suffix on each run',
    },
  },
];

function testdata(file: string): Buffer {
  return readFileSync(new URL(`./testdata/${file}`, import.meta.url));
}

function blankName(obj: Record<string, unknown>, pattern: RegExp): Record<string, unknown> {
  const metadata = obj.metadata as Record<string, unknown>;
  assert.match(String(metadata.name), pattern);
  return { ...obj, metadata: { ...metadata, name: '' } };
}

describe('protobuf bodies of kubectl 1.33 decode to the JSON bodies of kubectl 1.31', () => {
  for (const f of FIXTURES) {
    it(`kubectl ${f.command}`, () => {
      const decoded = decodeKubernetesProtobuf(testdata(`${f.name}.kubectl-1.33.pb`));
      let got = decoded.object;
      let want = JSON.parse(testdata(`${f.name}.kubectl-1.31.json`).toString('utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(decoded.apiVersion, f.apiVersion);
      assert.equal(decoded.kind, f.kind);
      if (f.differs !== undefined) {
        got = blankName(got, f.differs.pattern);
        want = blankName(want, f.differs.pattern);
      }
      assert.deepEqual(got, want);
      // Same key order too: the JSON text equals kubectl 1.31's byte for byte.
      assert.equal(JSON.stringify(got), JSON.stringify(want));
    });
  }
});
