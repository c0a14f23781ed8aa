import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '../../util/clock.js';
import { apiVersionOf } from '../resource.js';
import { simulateCreate } from './harness.js';
import { builtinResources, createBuiltinResources } from './index.js';

/** group/plural → [kind, shortNames, namespaced, nameValidation, generation, status, all] */
const EXPECTED: Record<string, [string, string[], boolean, string, string, boolean, boolean]> = {
  '/namespaces': ['Namespace', ['ns'], false, 'dns-label', 'none', true, false],
  '/pods': ['Pod', ['po'], true, 'dns-subdomain', 'spec', true, true],
  '/services': ['Service', ['svc'], true, 'dns-label', 'none', true, true],
  '/endpoints': ['Endpoints', ['ep'], true, 'dns-subdomain', 'none', false, false],
  '/configmaps': ['ConfigMap', ['cm'], true, 'dns-subdomain', 'none', false, false],
  '/secrets': ['Secret', [], true, 'dns-subdomain', 'none', false, false],
  '/serviceaccounts': ['ServiceAccount', ['sa'], true, 'dns-subdomain', 'none', false, false],
  '/events': ['Event', ['ev'], true, 'path-segment', 'none', false, false],
  '/nodes': ['Node', ['no'], false, 'dns-subdomain', 'none', true, false],
  '/persistentvolumeclaims': [
    'PersistentVolumeClaim',
    ['pvc'],
    true,
    'dns-subdomain',
    'none',
    true,
    false,
  ],
  '/persistentvolumes': ['PersistentVolume', ['pv'], false, 'dns-subdomain', 'none', true, false],
  '/resourcequotas': ['ResourceQuota', ['quota'], true, 'dns-subdomain', 'none', true, false],
  '/limitranges': ['LimitRange', ['limits'], true, 'dns-subdomain', 'none', false, false],
  'discovery.k8s.io/endpointslices': [
    'EndpointSlice',
    [],
    true,
    'dns-subdomain',
    'spec',
    false,
    false,
  ],
  'events.k8s.io/events': ['Event', ['ev'], true, 'dns-subdomain', 'none', false, false],
  'apps/deployments': [
    'Deployment',
    ['deploy'],
    true,
    'dns-subdomain',
    'spec-and-annotations',
    true,
    true,
  ],
  'apps/replicasets': ['ReplicaSet', ['rs'], true, 'dns-subdomain', 'spec', true, true],
  'apps/statefulsets': ['StatefulSet', ['sts'], true, 'dns-label', 'spec', true, true],
  'apps/controllerrevisions': [
    'ControllerRevision',
    [],
    true,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'storage.k8s.io/storageclasses': [
    'StorageClass',
    ['sc'],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'coordination.k8s.io/leases': ['Lease', [], true, 'dns-subdomain', 'none', false, false],
  'policy/poddisruptionbudgets': [
    'PodDisruptionBudget',
    ['pdb'],
    true,
    'dns-subdomain',
    'spec',
    true,
    false,
  ],
  'networking.k8s.io/networkpolicies': [
    'NetworkPolicy',
    ['netpol'],
    true,
    'dns-subdomain',
    'spec',
    false,
    false,
  ],
  'rbac.authorization.k8s.io/roles': ['Role', [], true, 'path-segment', 'none', false, false],
  'rbac.authorization.k8s.io/clusterroles': [
    'ClusterRole',
    [],
    false,
    'path-segment',
    'none',
    false,
    false,
  ],
  'rbac.authorization.k8s.io/rolebindings': [
    'RoleBinding',
    [],
    true,
    'path-segment',
    'none',
    false,
    false,
  ],
  'rbac.authorization.k8s.io/clusterrolebindings': [
    'ClusterRoleBinding',
    [],
    false,
    'path-segment',
    'none',
    false,
    false,
  ],
  'batch/jobs': ['Job', [], true, 'dns-subdomain', 'spec', true, true],
  'batch/cronjobs': ['CronJob', ['cj'], true, 'dns-subdomain', 'spec', true, true],
  'apps/daemonsets': ['DaemonSet', ['ds'], true, 'dns-subdomain', 'spec', true, true],
  '/replicationcontrollers': [
    'ReplicationController',
    ['rc'],
    true,
    'dns-subdomain',
    'spec',
    true,
    true,
  ],
  'autoscaling/horizontalpodautoscalers': [
    'HorizontalPodAutoscaler',
    ['hpa'],
    true,
    'dns-subdomain',
    'none',
    true,
    true,
  ],
  'scheduling.k8s.io/priorityclasses': [
    'PriorityClass',
    ['pc'],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  '/podtemplates': ['PodTemplate', [], true, 'dns-subdomain', 'spec', false, false],
  '/componentstatuses': ['ComponentStatus', ['cs'], false, 'dns-subdomain', 'none', false, false],
  '/bindings': ['Binding', [], true, 'dns-subdomain', 'none', false, false],
  'admissionregistration.k8s.io/validatingadmissionpolicies': [
    'ValidatingAdmissionPolicy',
    [],
    false,
    'dns-subdomain',
    'spec',
    true,
    false,
  ],
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': [
    'ValidatingAdmissionPolicyBinding',
    [],
    false,
    'dns-subdomain',
    'spec',
    false,
    false,
  ],
  'authentication.k8s.io/tokenreviews': [
    'TokenReview',
    [],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'authentication.k8s.io/selfsubjectreviews': [
    'SelfSubjectReview',
    [],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'authorization.k8s.io/subjectaccessreviews': [
    'SubjectAccessReview',
    [],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'authorization.k8s.io/localsubjectaccessreviews': [
    'LocalSubjectAccessReview',
    [],
    true,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'authorization.k8s.io/selfsubjectaccessreviews': [
    'SelfSubjectAccessReview',
    [],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'authorization.k8s.io/selfsubjectrulesreviews': [
    'SelfSubjectRulesReview',
    [],
    false,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'networking.k8s.io/ingresses': ['Ingress', ['ing'], true, 'dns-subdomain', 'spec', true, false],
  'networking.k8s.io/ingressclasses': [
    'IngressClass',
    [],
    false,
    'dns-subdomain',
    'spec',
    false,
    false,
  ],
  'networking.k8s.io/servicecidrs': [
    'ServiceCIDR',
    [],
    false,
    'dns-subdomain',
    'spec',
    true,
    false,
  ],
  'networking.k8s.io/ipaddresses': [
    'IPAddress',
    ['ip'],
    false,
    'path-segment',
    'none',
    false,
    false,
  ],
  'node.k8s.io/runtimeclasses': ['RuntimeClass', [], false, 'dns-subdomain', 'none', false, false],
  'storage.k8s.io/csidrivers': ['CSIDriver', [], false, 'dns-subdomain', 'spec', false, false],
  'storage.k8s.io/csinodes': ['CSINode', [], false, 'dns-subdomain', 'none', false, false],
  'storage.k8s.io/volumeattachments': [
    'VolumeAttachment',
    [],
    false,
    'dns-subdomain',
    'none',
    true,
    false,
  ],
  'storage.k8s.io/csistoragecapacities': [
    'CSIStorageCapacity',
    [],
    true,
    'dns-subdomain',
    'none',
    false,
    false,
  ],
  'certificates.k8s.io/certificatesigningrequests': [
    'CertificateSigningRequest',
    ['csr'],
    false,
    'dns-subdomain',
    'none',
    true,
    false,
  ],
  'apiregistration.k8s.io/apiservices': [
    'APIService',
    [],
    false,
    'path-segment',
    'none',
    true,
    false,
  ],
  'flowcontrol.apiserver.k8s.io/flowschemas': [
    'FlowSchema',
    [],
    false,
    'dns-subdomain',
    'spec',
    true,
    false,
  ],
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': [
    'PriorityLevelConfiguration',
    [],
    false,
    'dns-subdomain',
    'spec',
    true,
    false,
  ],
  'admissionregistration.k8s.io/validatingwebhookconfigurations': [
    'ValidatingWebhookConfiguration',
    [],
    false,
    'dns-subdomain',
    'all-but-metadata',
    false,
    false,
  ],
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': [
    'MutatingWebhookConfiguration',
    [],
    false,
    'dns-subdomain',
    'all-but-metadata',
    false,
    false,
  ],
};

describe('builtinResources', () => {
  it('serves exactly the expected resources with upstream names and settings', () => {
    const seen = [...new Set(builtinResources.map((d) => `${d.group}/${d.plural}`))].sort();
    assert.deepEqual(seen, Object.keys(EXPECTED).sort());
    for (const d of builtinResources) {
      const [kind, shortNames, namespaced, nameValidation, generation, status, all] =
        EXPECTED[`${d.group}/${d.plural}`] ?? [];
      assert.equal(d.kind, kind, d.plural);
      assert.deepEqual([...(d.shortNames ?? [])], shortNames, d.plural);
      assert.equal(d.namespaced, namespaced, d.plural);
      assert.equal(d.nameValidation, nameValidation, d.plural);
      assert.equal(d.generation, generation, d.plural);
      assert.equal(d.statusSubresource, status, d.plural);
      assert.deepEqual([...(d.categories ?? [])], all ? ['all'] : [], d.plural);
    }
  });

  it('has consistent names', () => {
    for (const d of builtinResources) {
      assert.match(d.version, /^v\d+$/);
      assert.equal(d.listKind, `${d.kind}List`);
      assert.equal(d.singular, d.kind.toLowerCase());
      assert.match(d.plural, /^[a-z]+$/);
      assert.ok(d.plural.startsWith(d.singular.replace(/y$/, '')), d.plural);
      for (const s of d.shortNames ?? []) assert.match(s, /^[a-z]+$/);
    }
    const paths = builtinResources.map((d) => `${apiVersionOf(d)}/${d.plural}`);
    assert.equal(new Set(paths).size, paths.length);
    // Short names are unique, except that both Event APIs answer to `ev`, as upstream.
    const owners = new Map<string, Set<string>>();
    for (const d of builtinResources)
      for (const s of d.shortNames ?? []) owners.set(s, (owners.get(s) ?? new Set()).add(d.plural));
    for (const [s, plurals] of owners) assert.equal(plurals.size, 1, s);
  });

  it('gives the apps workloads and ReplicationControllers a scale subresource, nothing else', () => {
    for (const d of builtinResources) {
      const rc = d.group === '' && d.kind === 'ReplicationController';
      const workload =
        (d.group === 'apps' && d.kind !== 'ControllerRevision' && d.kind !== 'DaemonSet') || rc;
      assert.equal(d.scale !== undefined, workload, d.plural);
      if (workload)
        assert.deepEqual(d.scale, {
          specReplicasPath: 'spec.replicas',
          statusReplicasPath: 'status.replicas',
          labelSelectorPath: 'spec.selector',
          ...(rc ? { selectorIsMap: true } : {}),
        });
    }
  });

  it('names every selectable field even for an empty object', () => {
    const fields = (kind: string, group = '') =>
      Object.keys(
        builtinResources
          .find((d) => d.kind === kind && d.group === group)
          ?.strategy.selectableFields?.({}) ?? {},
      );
    assert.deepEqual(fields('Pod'), [
      'spec.nodeName',
      'spec.restartPolicy',
      'spec.schedulerName',
      'spec.serviceAccountName',
      'spec.hostNetwork',
      'status.phase',
      'status.podIP',
      'status.podIPs',
      'status.nominatedNodeName',
    ]);
    assert.deepEqual(fields('Secret'), ['type']);
    assert.deepEqual(fields('Namespace'), ['status.phase']);
    assert.deepEqual(fields('ReplicaSet', 'apps'), ['status.replicas']);
    assert.deepEqual(fields('Node'), ['spec.unschedulable']);
    assert.deepEqual(fields('Event').sort(), [
      'involvedObject.apiVersion',
      'involvedObject.fieldPath',
      'involvedObject.kind',
      'involvedObject.name',
      'involvedObject.namespace',
      'involvedObject.resourceVersion',
      'involvedObject.uid',
      'reason',
      'reportingComponent',
      'source',
      'type',
    ]);
    assert.deepEqual(fields('Event', 'events.k8s.io').sort(), [
      'reason',
      'regarding.apiVersion',
      'regarding.fieldPath',
      'regarding.kind',
      'regarding.name',
      'regarding.namespace',
      'regarding.resourceVersion',
      'regarding.uid',
      'reportingController',
      'source',
      'type',
    ]);
  });

  it('survives empty and odd objects in every hook', () => {
    for (const d of builtinResources) {
      for (const input of [
        {},
        { spec: 'x', status: 1, metadata: { name: 'a', namespace: 'b' } },
        { spec: { template: 3 } },
      ]) {
        const out = simulateCreate(d, input as never);
        assert.ok(Array.isArray(out.errors), d.plural);
        d.strategy.validateUpdate?.(out.object, out.object);
        d.strategy.selectableFields?.(out.object);
      }
    }
  });

  it('stamps PersistentVolume phase transitions with the injected clock', () => {
    const clock = new FakeClock(Date.UTC(2026, 2, 4, 5, 6, 7, 800));
    const pv = createBuiltinResources({ clock }).find((d) => d.kind === 'PersistentVolume');
    assert.ok(pv);
    const obj = { metadata: { name: 'pv1' } };
    pv.strategy.prepareForCreate?.(obj);
    assert.deepEqual((obj as { status?: unknown }).status, {
      phase: 'Pending',
      lastPhaseTransitionTime: '2026-03-04T05:06:07Z',
    });
  });
});
