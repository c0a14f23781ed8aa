import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import {
  claimEvaluator,
  countedResource,
  evaluatorFor,
  evaluatorsForNames,
  podEvaluator,
  serviceEvaluator,
} from './evaluators.js';
import { toJsonList } from './resource-list.js';
import { podMatchesScope, quotaScopeRequirements } from './scopes.js';

type Res = { requests?: Record<string, string>; limits?: Record<string, string> };
const container = (name: string, resources: Res = {}, extra: Record<string, unknown> = {}) => ({
  name,
  image: 'nginx',
  resources,
  ...extra,
});
const pod = (spec: Record<string, unknown>, status: Record<string, unknown> = {}, meta = {}) =>
  ({ metadata: { name: 'p', ...meta }, spec, status }) as KubeObject;

describe('pod usage', () => {
  const cases: Array<[string, KubeObject, Record<string, string>]> = [
    [
      'best effort: only the counts',
      pod({ containers: [container('a')] }),
      { 'count/pods': '1', pods: '1' },
    ],
    [
      'requests and limits of every container, summed',
      pod({
        containers: [
          container('a', { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '200m' } }),
          container('b', { requests: { cpu: '150m', memory: '64Mi' } }),
        ],
      }),
      {
        'count/pods': '1',
        cpu: '250m',
        'limits.cpu': '200m',
        memory: '128Mi',
        pods: '1',
        'requests.cpu': '250m',
        'requests.memory': '128Mi',
      },
    ],
    [
      'an init container larger than the containers raises the request',
      pod({
        initContainers: [container('init', { requests: { cpu: '2' } })],
        containers: [container('a', { requests: { cpu: '500m' } })],
      }),
      { 'count/pods': '1', cpu: '2', pods: '1', 'requests.cpu': '2' },
    ],
    [
      'a sidecar adds to the containers and to later init containers',
      pod({
        initContainers: [
          container('side', { requests: { cpu: '500m' } }, { restartPolicy: 'Always' }),
          container('init', { requests: { cpu: '1' } }),
        ],
        containers: [container('a', { requests: { cpu: '500m' } })],
      }),
      { 'count/pods': '1', cpu: '1500m', pods: '1', 'requests.cpu': '1500m' },
    ],
    [
      'overhead is charged on requests, and on limits that exist',
      pod({
        overhead: { cpu: '100m', memory: '10Mi' },
        containers: [container('a', { requests: { cpu: '1' }, limits: { cpu: '1' } })],
      }),
      {
        'count/pods': '1',
        cpu: '1100m',
        'limits.cpu': '1100m',
        memory: '10Mi',
        pods: '1',
        'requests.cpu': '1100m',
        'requests.memory': '10Mi',
      },
    ],
    [
      'hugepages and extended resources',
      pod({
        containers: [
          container('a', { requests: { 'hugepages-2Mi': '4Mi', 'example.com/gpu': '1' } }),
        ],
      }),
      {
        'count/pods': '1',
        'hugepages-2Mi': '4Mi',
        pods: '1',
        'requests.example.com/gpu': '1',
        'requests.hugepages-2Mi': '4Mi',
      },
    ],
    [
      'a terminal pod keeps only count/pods',
      pod({ containers: [container('a', { requests: { cpu: '1' } })] }, { phase: 'Succeeded' }),
      { 'count/pods': '1' },
    ],
    [
      'a failed pod too',
      pod({ containers: [container('a')] }, { phase: 'Failed' }),
      { 'count/pods': '1' },
    ],
  ];
  for (const [name, p, want] of cases) {
    it(name, () => assert.deepEqual(toJsonList(podEvaluator.usage(p, 0)), want));
  }

  it('stops charging a deleting pod once its grace period is over', () => {
    const deleting = pod(
      { containers: [container('a')] },
      {},
      {
        deletionTimestamp: '2024-01-01T00:00:00Z',
        deletionGracePeriodSeconds: 30,
      },
    );
    const at = Date.parse('2024-01-01T00:00:30Z');
    assert.equal(toJsonList(podEvaluator.usage(deleting, at)).pods, '1');
    assert.equal(toJsonList(podEvaluator.usage(deleting, at + 1)).pods, undefined);
  });
});

describe('pod constraints (compute quotas need every container to declare them)', () => {
  it('names the missing resources and containers, as upstream', () => {
    const p = pod({
      initContainers: [container('init', { limits: { cpu: '1' } })],
      containers: [container('web', { requests: { cpu: '1' } }), container('log')],
    });
    assert.equal(
      podEvaluator.constraints(['limits.cpu', 'requests.cpu', 'pods'], p),
      'must specify limits.cpu for: log,web; requests.cpu for: init,log',
    );
    assert.equal(podEvaluator.constraints(['pods', 'count/pods'], p), undefined);
  });
});

describe('service and claim usage', () => {
  it('counts node ports and load balancers by type', () => {
    const svc = (spec: Record<string, unknown>) => ({ metadata: { name: 's' }, spec });
    const ports = [{ port: 80 }, { port: 443, nodePort: 30443 }];
    assert.deepEqual(toJsonList(serviceEvaluator.usage(svc({ type: 'ClusterIP', ports }), 0)), {
      'count/services': '1',
      services: '1',
      'services.loadbalancers': '0',
      'services.nodeports': '0',
    });
    assert.equal(
      toJsonList(serviceEvaluator.usage(svc({ type: 'NodePort', ports }), 0))['services.nodeports'],
      '2',
    );
    const lb = toJsonList(
      serviceEvaluator.usage(
        svc({ type: 'LoadBalancer', ports, allocateLoadBalancerNodePorts: false }),
        0,
      ),
    );
    assert.equal(lb['services.nodeports'], '1');
    assert.equal(lb['services.loadbalancers'], '1');
  });

  it('charges a claim its storage, by class too, the allocation when larger', () => {
    const claim = {
      metadata: { name: 'c' },
      spec: { storageClassName: 'gold', resources: { requests: { storage: '1Gi' } } },
      status: { allocatedResources: { storage: '2Gi' } },
    };
    assert.deepEqual(toJsonList(claimEvaluator.usage(claim, 0)), {
      'count/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
      'gold.storageclass.storage.k8s.io/requests.storage': '2Gi',
      persistentvolumeclaims: '1',
      'requests.storage': '2Gi',
    });
  });

  it('matches the resource names each kind answers for', () => {
    const names = [
      'pods',
      'requests.cpu',
      'services.nodeports',
      'requests.storage',
      'gold.storageclass.storage.k8s.io/requests.storage',
      'configmaps',
      'count/deployments.apps',
      'requests.example.com/gpu',
    ];
    assert.deepEqual(podEvaluator.matchingResources(names), [
      'pods',
      'requests.cpu',
      'requests.example.com/gpu',
    ]);
    assert.deepEqual(claimEvaluator.matchingResources(names), [
      'requests.storage',
      'gold.storageclass.storage.k8s.io/requests.storage',
    ]);
    assert.deepEqual(
      evaluatorsForNames(names).map((e) => `${e.group}/${e.resource}`),
      ['/pods', '/services', '/persistentvolumeclaims', '/configmaps', 'apps/deployments'],
    );
    assert.deepEqual(countedResource('count/widgets.example.com'), {
      group: 'example.com',
      resource: 'widgets',
    });
    assert.equal(evaluatorFor('', 'events'), undefined);
    assert.deepEqual(evaluatorFor('', 'secrets')?.matchingResources(['secrets', 'count/secrets']), [
      'count/secrets',
      'secrets',
    ]);
  });
});

describe('scopes', () => {
  const quota = (spec: Record<string, unknown>) => ({ metadata: { name: 'q' }, spec });
  const cases: Array<[string, Record<string, unknown>, KubeObject, boolean]> = [
    [
      'Terminating: activeDeadlineSeconds set',
      { scopes: ['Terminating'] },
      pod({ activeDeadlineSeconds: 0 }),
      true,
    ],
    ['NotTerminating', { scopes: ['NotTerminating'] }, pod({ activeDeadlineSeconds: 10 }), false],
    [
      'BestEffort from status.qosClass',
      { scopes: ['BestEffort'] },
      pod({}, { qosClass: 'BestEffort' }),
      true,
    ],
    [
      'NotBestEffort computed from the spec',
      { scopes: ['NotBestEffort'] },
      pod({ containers: [container('a', { requests: { cpu: '1' } })] }),
      true,
    ],
    [
      'PriorityClass In',
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high'] }],
        },
      },
      pod({ priorityClassName: 'high' }),
      true,
    ],
    [
      'PriorityClass NotIn matches a pod without a class',
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'NotIn', values: ['high'] }],
        },
      },
      pod({}),
      true,
    ],
    [
      'PriorityClass DoesNotExist',
      {
        scopeSelector: {
          matchExpressions: [{ scopeName: 'PriorityClass', operator: 'DoesNotExist' }],
        },
      },
      pod({ priorityClassName: 'low' }),
      false,
    ],
    [
      'CrossNamespacePodAffinity',
      { scopes: ['CrossNamespacePodAffinity'] },
      pod({
        affinity: {
          podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ namespaces: ['x'] }] },
        },
      }),
      true,
    ],
  ];
  for (const [name, spec, p, want] of cases) {
    it(name, () => {
      const reqs = quotaScopeRequirements(quota(spec));
      assert.equal(
        reqs.every((r) => podMatchesScope(r, p)),
        want,
      );
    });
  }

  it('no scope matches services or claims', () => {
    const req = { scopeName: 'BestEffort', operator: 'Exists', values: [] };
    assert.equal(serviceEvaluator.matchesScope(req, { spec: {} }), false);
    assert.equal(claimEvaluator.matchesScope(req, { spec: {} }), false);
  });
});
