/**
 * Dev tool (not a test): re-captures the golden request bodies in `../testdata` from a real
 * kubectl. It serves just enough of the API on 127.0.0.1 (discovery, a node, a pod to copy,
 * echoed writes), runs each fixture's kubectl command against it and stores the body of the
 * command's first write as `<fixture>.kubectl-<version>.pb` (protobuf) or `.json`.
 *
 *     node --import tsx src/api/protobuf/testing/capture-kubectl.ts 1.33 out
 *
 * `kubectl.<version>` must sit beside the `kubectl` on the PATH (as the Cloud SDK ships them).
 * Copy what it writes into `../testdata` (then `biome check --write` formats the JSON).
 *
 * @module
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { decodeKubernetesProtobuf } from '../decode.js';

const CAPTURES: readonly { readonly name: string; readonly args: string }[] = [
  { name: 'create-namespace', args: 'create namespace x' },
  { name: 'create-configmap', args: 'create configmap c --from-literal=a=b --from-literal=c=d' },
  {
    name: 'create-configmap-from-file',
    args: 'create configmap files --from-file=bin.dat --from-file=text.txt',
  },
  { name: 'create-secret-generic', args: 'create secret generic s --from-literal=k=v' },
  {
    name: 'create-secret-docker-registry',
    args: 'create secret docker-registry reg --docker-server=r.example --docker-username=u --docker-password=p --docker-email=e@x',
  },
  {
    name: 'create-deployment',
    args: 'create deployment web --image=nginx:1.27 --replicas=2 --port=80 -- sleep 10',
  },
  {
    name: 'create-deployment-multi-image',
    args: 'create deployment multi --image=nginx --image=busybox',
  },
  { name: 'create-service-clusterip', args: 'create service clusterip svc --tcp=80:8080' },
  {
    name: 'create-service-nodeport',
    args: 'create service nodeport np --tcp=80:8080 --node-port=30080',
  },
  { name: 'create-service-loadbalancer', args: 'create service loadbalancer lb --tcp=443:8443' },
  {
    name: 'create-service-externalname',
    args: 'create service externalname ext --external-name=example.com',
  },
  { name: 'create-serviceaccount', args: 'create serviceaccount sa' },
  { name: 'create-pdb', args: 'create pdb p --selector=app=web --min-available=1' },
  {
    name: 'create-pdb-max-unavailable',
    args: 'create pdb p2 --selector=app=x --max-unavailable=50%',
  },
  {
    name: 'drain-delete-options',
    args: 'drain node1 --force --disable-eviction --grace-period=5 --timeout=5s',
  },
  {
    name: 'debug-copy-rich-pod',
    args: 'debug rich --copy-to=rich-copy --image=busybox:1.36 --container=dbg --profile=legacy --share-processes=false --keep-labels --keep-annotations --keep-liveness --keep-readiness --keep-startup --attach=false',
  },
  { name: 'debug-node', args: 'debug node/node1 --image=busybox:1.36 --profile=legacy' },
  {
    name: 'create-quota',
    args: 'create quota q --hard=cpu=1,memory=1Gi,pods=2,count/configmaps=5 --scopes=NotBestEffort,NotTerminating',
  },
  {
    name: 'create-role',
    args: 'create role r --verb=get,list --resource=pods,deployments.apps --resource-name=a',
  },
  {
    name: 'create-clusterrole',
    args: 'create clusterrole cr --verb=get --resource=pods --non-resource-url=/healthz',
  },
  {
    name: 'create-clusterrole-aggregation',
    args: 'create clusterrole agg --aggregation-rule=rbac.example.com/aggregate=true',
  },
  {
    name: 'create-rolebinding',
    args: 'create rolebinding rb --role=r --user=u --group=g --serviceaccount=default:sa',
  },
  {
    name: 'create-clusterrolebinding',
    args: 'create clusterrolebinding crb --clusterrole=cr --user=u --serviceaccount=default:sa',
  },
];

const VERBS = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const resource = (name: string, kind: string, namespaced: boolean) => ({
  name,
  singularName: '',
  namespaced,
  kind,
  verbs: VERBS,
});
const DISCOVERY: Readonly<Record<string, unknown>> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: ['apps', 'policy', 'rbac.authorization.k8s.io'].map((g) => ({
      name: g,
      versions: [{ groupVersion: `${g}/v1`, version: 'v1' }],
      preferredVersion: { groupVersion: `${g}/v1`, version: 'v1' },
    })),
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      ...['Namespace', 'Node'].map((k) => resource(`${k.toLowerCase()}s`, k, false)),
      ...['ConfigMap', 'Secret', 'Service', 'ServiceAccount', 'Pod', 'ResourceQuota'].map((k) =>
        resource(`${k.toLowerCase()}s`, k, true),
      ),
      {
        name: 'pods/eviction',
        singularName: '',
        namespaced: true,
        group: 'policy',
        version: 'v1',
        kind: 'Eviction',
        verbs: ['create'],
      },
    ],
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    groupVersion: 'apps/v1',
    resources: [resource('deployments', 'Deployment', true)],
  },
  '/apis/rbac.authorization.k8s.io/v1': {
    kind: 'APIResourceList',
    groupVersion: 'rbac.authorization.k8s.io/v1',
    resources: [
      resource('roles', 'Role', true),
      resource('rolebindings', 'RoleBinding', true),
      resource('clusterroles', 'ClusterRole', false),
      resource('clusterrolebindings', 'ClusterRoleBinding', false),
    ],
  },
  '/apis/policy/v1': {
    kind: 'APIResourceList',
    groupVersion: 'policy/v1',
    resources: [resource('poddisruptionbudgets', 'PodDisruptionBudget', true)],
  },
};

const NODE = { kind: 'Node', apiVersion: 'v1', metadata: { name: 'node1', uid: 'n1' }, spec: {} };
const POD = {
  metadata: { name: 'p1', namespace: 'default', uid: 'u1' },
  spec: { nodeName: 'node1', containers: [{ name: 'c', image: 'nginx' }] },
};
const RICH_POD = readFileSync(
  new URL('../testdata/debug-copy-rich-pod.source.json', import.meta.url),
);

interface Captured {
  body: Buffer;
  protobuf: boolean;
}

/** The server's state: the first write body of the current command, and whether p1 is gone. */
const state: { first: Captured | undefined; deleted: boolean } = {
  first: undefined,
  deleted: false,
};

function send(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
}

/** The answer to a GET: discovery, the node to drain, its pod, and the pod to copy. */
function readAnswer(path: string): [number, unknown] {
  if (path in DISCOVERY) return [200, DISCOVERY[path]];
  if (path === '/api/v1/nodes/node1') return [200, NODE];
  if (path === '/api/v1/pods') {
    return [
      200,
      { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: state.deleted ? [] : [POD] },
    ];
  }
  if (path === '/api/v1/namespaces/default/pods/p1' && !state.deleted) {
    return [200, { kind: 'Pod', apiVersion: 'v1', ...POD }];
  }
  if (path === '/api/v1/namespaces/default/pods/rich') return [200, RICH_POD];
  return [
    404,
    {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      metadata: {},
    },
  ];
}

/** Records the first write body of a command; answers with the object echoed back as JSON. */
function writeAnswer(req: IncomingMessage, body: Buffer): [number, unknown] {
  const protobuf = (req.headers['content-type'] ?? '').includes('protobuf');
  if (req.method === 'PATCH') return [200, NODE];
  state.first ??= { body, protobuf };
  if (req.method === 'DELETE') state.deleted = true;
  let echo: unknown = {};
  try {
    echo = protobuf ? decodeKubernetesProtobuf(body).object : JSON.parse(body.toString('utf8'));
  } catch {
    // The capture is what matters; kubectl only prints the echo.
  }
  return [req.method === 'POST' ? 201 : 200, echo];
}

function kubectlPath(version: string): string {
  const which = execFileSync('which', ['kubectl'], { encoding: 'utf8' }).trim();
  return join(dirname(realpathSync(which)), `kubectl.${version}`);
}

async function main(): Promise<void> {
  const [version, out] = process.argv.slice(2);
  if (version === undefined || out === undefined)
    throw new Error('usage: capture-kubectl.ts VERSION OUT_DIR');
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const [code, answer] =
        req.method === 'GET'
          ? readAnswer(new URL(req.url ?? '/', 'http://x').pathname)
          : writeAnswer(req, body);
      send(res, code, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const home = mkdtempSync(join(tmpdir(), 'capture-kubectl-'));
  const kubeconfig = join(home, 'config');
  writeFileSync(
    kubeconfig,
    `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}\ncontexts:\n- name: c\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: c\nusers:\n- name: u\n  user: {}\n`,
  );
  // The files of create-configmap-from-file (the binary one lands in binaryData).
  writeFileSync(join(home, 'bin.dat'), Buffer.from('Qp0kcHBuUpPFkpf6nfVTPw==', 'base64'));
  writeFileSync(join(home, 'text.txt'), 'hello');
  const kubectl = kubectlPath(version);
  for (const capture of CAPTURES) {
    Object.assign(state, { first: undefined, deleted: false });
    // Async so the server in this process keeps answering while kubectl runs.
    await new Promise<void>((resolve) => {
      const child = execFile(
        kubectl,
        capture.args.split(' '),
        { cwd: home, env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home }, timeout: 30_000 },
        () => resolve(),
      );
      child.stdin?.end();
    });
    const first = state.first as Captured | undefined;
    if (first === undefined) {
      console.error(`${capture.name}: no body captured`);
      continue;
    }
    const file = join(out, `${capture.name}.kubectl-${version}.${first.protobuf ? 'pb' : 'json'}`);
    writeFileSync(file, first.body);
    console.log(file);
  }
  server.close();
}

await main();
