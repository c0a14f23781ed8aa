import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { endpointSliceResource } from './discovery-endpointslice.js';
import { simulateCreate, simulateUpdate } from './harness.js';

type Fields = Record<string, unknown>;
const slice = (fields: Fields = {}): KubeObject => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name: 'web-abc', namespace: 'default' },
  addressType: 'IPv4',
  endpoints: [{ addresses: ['10.0.0.1'], hostname: 'web-0', nodeName: 'node-a' }],
  ports: [{ name: 'http', port: 80 }],
  ...fields,
});

describe('EndpointSlice', () => {
  it('defaults port protocols to TCP', () => {
    const { object, errors } = simulateCreate(
      endpointSliceResource,
      slice({ ports: [{ port: 80 }] }),
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(object.ports, [{ name: '', port: 80, protocol: 'TCP' }]);
  });

  const many = (n: number, f: (i: number) => unknown) => Array.from({ length: n }, (_, i) => f(i));
  const cases: { name: string; fields: Fields; want: string[] }[] = [
    { name: 'valid', fields: {}, want: [] },
    {
      name: 'address type required',
      fields: { addressType: '' },
      want: ['addressType: Required value'],
    },
    {
      name: 'address type supported',
      fields: { addressType: 'IP' },
      want: ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
    },
    {
      name: 'addresses required',
      fields: { endpoints: [{ addresses: [] }] },
      want: ['endpoints[0].addresses: Required value: must contain at least 1 address'],
    },
    {
      name: 'at most 100 addresses',
      fields: { endpoints: [{ addresses: many(101, (i) => `10.0.${i}.1`) }] },
      want: ['endpoints[0].addresses: Too many: 101: must have at most 100 items'],
    },
    {
      name: 'at most 1000 endpoints',
      fields: { endpoints: many(1001, () => ({ addresses: ['10.0.0.1'] })) },
      want: ['endpoints: Too many: 1001: must have at most 1000 items'],
    },
    {
      name: 'at most 100 ports',
      fields: { ports: many(101, (i) => ({ name: `p${i}`, port: 80 })) },
      want: ['ports: Too many: 101: must have at most 100 items'],
    },
    {
      name: 'IPv4 addresses',
      fields: { endpoints: [{ addresses: ['fd00::1', '127.0.0.1'] }] },
      want: [
        'endpoints[0].addresses[0]: Invalid value: "fd00::1": must be a valid IPv4 address',
        'endpoints[0].addresses[1]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    },
    {
      name: 'IPv6 addresses',
      fields: { addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1', '10.0.0.1'] }] },
      want: ['endpoints[0].addresses[1]: Invalid value: "10.0.0.1": must be a valid IPv6 address'],
    },
    {
      name: 'FQDN addresses',
      fields: { addressType: 'FQDN', endpoints: [{ addresses: ['a.example.com', 'single'] }] },
      want: [
        'endpoints[0].addresses[1]: Invalid value: "single": should be a domain with at least two segments separated by dots',
      ],
    },
    {
      name: 'hostname is a DNS label',
      fields: { endpoints: [{ addresses: ['10.0.0.1'], hostname: 'Web.0' }] },
      want: [
        "endpoints[0].hostname: Invalid value: \"Web.0\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      ],
    },
    {
      name: 'port names unique, protocols supported',
      fields: {
        ports: [
          { name: 'a', port: 1, protocol: 'TCP' },
          { name: 'a', port: 2, protocol: 'HTTP' },
        ],
      },
      want: [
        'ports[1].name: Duplicate value: "a"',
        'ports[1].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      ],
    },
  ];
  for (const c of cases) {
    it(`validates: ${c.name}`, () => {
      assert.deepEqual(simulateCreate(endpointSliceResource, slice(c.fields)).messages, c.want);
    });
  }

  it('keeps addressType immutable', () => {
    const old = simulateCreate(endpointSliceResource, slice()).object;
    const next = { ...old, addressType: 'IPv6', endpoints: [{ addresses: ['fd00::1'] }] };
    assert.deepEqual(simulateUpdate(endpointSliceResource, next, old).messages, [
      'addressType: Invalid value: "IPv6": field is immutable',
    ]);
  });
});
