import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import {
  defaultIngressClassOf,
  ingressClassResource,
  ingressResource,
} from './networking-ingress.js';

type Spec = Record<string, unknown>;
const backend = { service: { name: 'web', port: { number: 80 } } };
const rule = (paths: unknown[], host?: string) => ({ ...(host ? { host } : {}), http: { paths } });
const ingress = (spec: Spec): KubeObject => ({
  metadata: { name: 'x', namespace: 'default' },
  spec,
});

describe('Ingress', () => {
  it('starts with an empty load-balancer status', () => {
    const { object, errors } = simulateCreate(
      ingressResource,
      ingress({ rules: [rule([{ path: '/', pathType: 'Prefix', backend }])], ...{} }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(object.status, { loadBalancer: {} });
  });

  const cases: [string, Spec, string[]][] = [
    ['a default backend alone', { defaultBackend: backend }, []],
    [
      'neither rules nor a default backend',
      {},
      ['spec: Invalid value: null: either `defaultBackend` or `rules` must be specified'],
    ],
    [
      'a path without pathType',
      { rules: [rule([{ path: '/', backend }])] },
      ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified'],
    ],
    [
      'an unknown pathType',
      { rules: [rule([{ path: '/', pathType: 'Regex', backend }])] },
      [
        'spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      ],
    ],
    [
      'a relative Prefix path and a dot segment',
      { rules: [rule([{ path: 'a/./b', pathType: 'Prefix', backend }])] },
      [
        'spec.rules[0].http.paths[0].path: Invalid value: "a/./b": must be an absolute path',
        'spec.rules[0].http.paths[0].path: Invalid value: "a/./b": must not contain \'/./\'',
      ],
    ],
    [
      'an empty ImplementationSpecific path',
      { rules: [rule([{ pathType: 'ImplementationSpecific', backend }])] },
      [],
    ],
    ['no paths', { rules: [rule([])] }, ['spec.rules[0].http.paths: Required value']],
    [
      'a backend without port',
      { defaultBackend: { service: { name: 'web' } } },
      ['spec.defaultBackend: Required value: port name or number is required'],
    ],
    [
      'a backend with port name and number',
      { defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number'],
    ],
    [
      'a service name that is no DNS-1035 label',
      { defaultBackend: { service: { name: '1web', port: { number: 80 } } } },
      [
        "spec.defaultBackend.service.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
    ],
    [
      'a backend with both service and resource',
      { defaultBackend: { ...backend, resource: { kind: 'Bucket', name: 'b' } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
    ],
    [
      'an out-of-range port',
      { defaultBackend: { service: { name: 'web', port: { number: 70000 } } } },
      [
        'spec.defaultBackend.service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'an IP as host',
      { rules: [rule([{ path: '/', pathType: 'Exact', backend }], '10.0.0.1')] },
      ['spec.rules[0].host: Invalid value: "10.0.0.1": must be a DNS name, not an IP address'],
    ],
    [
      'a wildcard host',
      { rules: [rule([{ path: '/', pathType: 'Exact', backend }], '*.example.com')] },
      [],
    ],
    [
      'a misplaced wildcard',
      { rules: [rule([{ path: '/', pathType: 'Exact', backend }], 'a.*.com')] },
      [
        "spec.rules[0].host: Invalid value: \"a.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'TLS with a wildcard host and a bad secret name',
      { defaultBackend: backend, tls: [{ hosts: ['*.example.com'], secretName: 'Bad' }] },
      [
        "spec.tls[0].secretName: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    [
      'a bad class name',
      { defaultBackend: backend, ingressClassName: 'Nginx' },
      [
        "spec.ingressClassName: Invalid value: \"Nginx\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(ingressResource, ingress(spec)).messages, want);
    });
  }

  it('checks load-balancer addresses on status writes', () => {
    const obj = ingress({ defaultBackend: backend });
    obj.status = { loadBalancer: { ingress: [{ ip: 'nope' }, { hostname: '10.1.1.1' }] } };
    const errs = ingressResource.strategy.validateStatusUpdate?.(obj, obj) ?? [];
    assert.deepEqual(
      errs.map((e) => e.field),
      ['status.loadBalancer.ingress[0].ip', 'status.loadBalancer.ingress[1].hostname'],
    );
  });
});

describe('IngressClass', () => {
  const ic = (spec: Spec, annotations?: Record<string, string>): KubeObject => ({
    metadata: { name: 'nginx', ...(annotations ? { annotations } : {}) },
    spec,
  });

  it('scopes parameters to the cluster by default', () => {
    const { object, errors } = simulateCreate(
      ingressClassResource,
      ic({ controller: 'k8s.io/ingress-nginx', parameters: { kind: 'Params', name: 'p' } }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual((object.spec as Spec).parameters, {
      kind: 'Params',
      name: 'p',
      scope: 'Cluster',
    });
  });

  const cases: [string, Spec, string[]][] = [
    [
      'a controller without a domain',
      { controller: 'nginx' },
      [
        'spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")',
      ],
    ],
    [
      'a namespaced parameter without namespace',
      { controller: 'a.io/b', parameters: { kind: 'P', name: 'p', scope: 'Namespace' } },
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
    [
      'a cluster parameter with a namespace',
      { controller: 'a.io/b', parameters: { kind: 'P', name: 'p', namespace: 'ns' } },
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
    [
      'a parameter without kind',
      { controller: 'a.io/b', parameters: { name: 'p' } },
      ['spec.parameters.kind: Required value: kind is required'],
    ],
  ];
  for (const [name, spec, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(ingressClassResource, ic(spec)).messages, want);
    });
  }

  it('keeps the controller immutable', () => {
    const old = simulateCreate(ingressClassResource, ic({ controller: 'a.io/b' })).object;
    const { messages } = simulateUpdate(ingressClassResource, ic({ controller: 'a.io/c' }), old);
    assert.deepEqual(messages, ['spec.controller: Invalid value: "a.io/c": field is immutable']);
  });

  it('picks the newest default class, then the first by name', () => {
    const at = (name: string, time: string, isDefault = true): KubeObject => ({
      metadata: {
        name,
        creationTimestamp: time,
        annotations: { 'ingressclass.kubernetes.io/is-default-class': String(isDefault) },
      },
    });
    const older = at('a', '2025-01-01T00:00:00Z');
    const newer = at('b', '2025-02-01T00:00:00Z');
    const newerTwin = at('c', '2025-02-01T00:00:00Z');
    const newestButNotDefault = at('d', '2025-03-01T00:00:00Z', false);
    assert.equal(
      defaultIngressClassOf([older, newerTwin, newer, newestButNotDefault])?.metadata?.name,
      'b',
    );
    assert.equal(defaultIngressClassOf([newestButNotDefault]), undefined);
  });
});
