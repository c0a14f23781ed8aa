/**
 * Every built-in resource in discovery decodes a protobuf request body (issue 14, item 3): the
 * protobuf tables were a hand-kept list, and ResourceQuota, LimitRange, EndpointSlice, Binding
 * and CustomResourceDefinition had none. Each creatable resource of every built-in group
 * version gets a dry-run POST of a protobuf body naming only `metadata.name`.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { API_ONLY, type Cluster } from './testing/cluster.js';
import {
  clusterForFile,
  createFromManifest,
  describeKubectl,
  namespaceObject,
} from './testing/kubectl-fixtures.js';
import { namedObject, send } from './testing/protobuf-requests.js';

const current = clusterForFile({ args: API_ONLY });
const ns = 'protobuf-bodies';

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Discovery

async function getJson(c: Cluster, path: string): Promise<Json> {
  const reply = await send(c, 'GET', path);
  assert.equal(reply.status, 200, `${path}: ${reply.text}`);
  return JSON.parse(reply.text) as Json;
}

/** The group versions in discovery that are built in: not served by a CRD. */
async function builtinGroupVersions(c: Cluster): Promise<string[]> {
  // Custom resources have no protobuf form (upstream refuses such bodies for them).
  const crds = (await getJson(c, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'))
    .items as { spec: { group: string } }[];
  const custom = new Set(crds.map((crd) => crd.spec.group));
  const groups = (await getJson(c, '/apis')).groups as {
    name: string;
    versions: { groupVersion: string }[];
  }[];
  const named = groups.filter((g) => !custom.has(g.name));
  return ['v1', ...named.flatMap((g) => g.versions.map((v) => v.groupVersion))];
}

interface DiscoveredResource {
  readonly name: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly verbs: readonly string[];
}

/**
 * POSTs a protobuf body of each creatable resource of a group version (dry run), and returns
 * the answers that show the body was not decoded. Created (201) or refused by validation
 * (422 Invalid: most kinds need more than a name) both mean it was.
 */
/** What upstream answers a TokenReview and a SelfSubjectRulesReview with an empty spec. */
const EMPTY_REVIEW_ANSWERS = new Set([
  'token is required for TokenReview in authentication.k8s.io',
  'no namespace on request',
]);

async function probeGroupVersion(c: Cluster, gv: string, ns: string): Promise<string[]> {
  const base = gv === 'v1' ? '/api/v1' : `/apis/${gv}`;
  const resources = (await getJson(c, base)).resources as DiscoveredResource[];
  const refused: string[] = [];
  for (const r of resources.filter((x) => !x.name.includes('/') && x.verbs.includes('create'))) {
    const path = `${base}${r.namespaced ? `/namespaces/${ns}` : ''}/${r.name}?dryRun=All`;
    const reply = await send(c, 'POST', path, namedObject(gv, r.kind, 'proto-probe'));
    const reason = reply.status === 422 ? (JSON.parse(reply.text) as Json).reason : undefined;
    const message = reply.status === 400 ? (JSON.parse(reply.text) as Json).message : undefined;
    // Two reviews answer an empty spec 400 with upstream's own words, after decoding it.
    const emptyReview = typeof message === 'string' && EMPTY_REVIEW_ANSWERS.has(message);
    if (reply.status !== 201 && reason !== 'Invalid' && !emptyReview) {
      refused.push(`${gv} ${r.kind}: ${reply.status} ${reply.text}`);
    }
  }
  return refused;
}

describeKubectl('1.33', current, (s) => {
  before(async () => {
    await createFromManifest(s.k(), undefined, namespaceObject(ns));
  });

  it('decodes a protobuf body of every built-in resource in discovery (dry run)', async () => {
    const c = s.cluster();
    const groupVersions = await builtinGroupVersions(c);
    assert.ok(groupVersions.includes('apiextensions.k8s.io/v1'), groupVersions.join(', '));
    const refused: string[] = [];
    for (const gv of groupVersions) refused.push(...(await probeGroupVersion(c, gv, ns)));
    assert.deepEqual(refused, []);
  });
});
