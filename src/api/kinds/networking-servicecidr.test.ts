import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../object.js';
import { simulateCreate, simulateUpdate } from './harness.js';
import {
  ipAddressResource,
  serviceCIDRResource,
  validateIPAddressName,
} from './networking-servicecidr.js';

const cidr = (cidrs: unknown[]): KubeObject => ({ metadata: { name: 'c' }, spec: { cidrs } });

describe('ServiceCIDR', () => {
  const cases: [string, unknown[], string[]][] = [
    ['one IPv4 range', ['10.96.0.0/12'], []],
    ['dual-stack', ['10.96.0.0/12', 'fd00::/108'], []],
    ['none', [], ['spec.cidrs: Required value: at least one CIDR required']],
    [
      'three',
      ['10.0.0.0/8', '11.0.0.0/8', 'fd00::/64'],
      [
        'spec.cidrs: Invalid value: {"cidrs":["10.0.0.0/8","11.0.0.0/8","fd00::/64"]}: may only hold up to 2 values',
      ],
    ],
    [
      'two of one family',
      ['10.0.0.0/8', '11.0.0.0/8'],
      [
        'spec.cidrs: Invalid value: {"cidrs":["10.0.0.0/8","11.0.0.0/8"]}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64',
      ],
    ],
    [
      'not a CIDR',
      ['10.0.0.1'],
      [
        'spec.cidrs[0]: Invalid value: "10.0.0.1": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
  ];
  for (const [name, cidrs, want] of cases) {
    it(`validates ${name}`, () => {
      assert.deepEqual(simulateCreate(serviceCIDRResource, cidr(cidrs)).messages, want);
    });
  }

  const updates: [string, unknown[], unknown[], string[]][] = [
    ['unchanged', ['10.96.0.0/12'], ['10.96.0.0/12'], []],
    ['gaining its second family', ['10.96.0.0/12'], ['10.96.0.0/12', 'fd00::/108'], []],
    [
      'a changed range',
      ['10.96.0.0/12'],
      ['10.97.0.0/16'],
      ['spec.cidrs[0]: Invalid value: "10.97.0.0/16": field is immutable'],
    ],
    [
      'a dropped family',
      ['10.96.0.0/12', 'fd00::/108'],
      ['10.96.0.0/12'],
      ['spec.cidrs: Invalid value: ["10.96.0.0/12"]: field is immutable'],
    ],
  ];
  for (const [name, before, after, want] of updates) {
    it(`allows or refuses an update: ${name}`, () => {
      const old = simulateCreate(serviceCIDRResource, cidr(before)).object;
      assert.deepEqual(simulateUpdate(serviceCIDRResource, cidr(after), old).messages, want);
    });
  }

  it('checks status conditions', () => {
    const obj = cidr(['10.96.0.0/12']);
    obj.status = {
      conditions: [
        { type: 'Ready', status: 'Yes' },
        { type: 'Ready', status: 'True' },
      ],
    };
    const errs = serviceCIDRResource.strategy.validateStatusUpdate?.(obj, obj) ?? [];
    assert.deepEqual(
      errs.map((e) => e.field),
      ['status.conditions[0].status', 'status.conditions[1].type'],
    );
  });
});

describe('IPAddress', () => {
  const parentRef = { group: '', resource: 'services', namespace: 'default', name: 'web' };
  const ip = (name: string, ref: unknown = parentRef): KubeObject => ({
    metadata: { name },
    spec: ref === null ? {} : { parentRef: ref },
  });

  const names: [string, string[]][] = [
    ['10.96.0.10', []],
    ['2001:db8::1', []],
    ['2001:DB8::1', ['must be a canonical format IP address']],
    ['2001:db8:0:0:0:0:0:1', ['must be a canonical format IP address']],
    ['010.96.0.10', ['ParseAddr("010.96.0.10"): IPv4 field has octet with leading zero']],
    ['web', ['ParseAddr("web"): unable to parse IP']],
  ];
  for (const [name, want] of names) {
    it(`validates the name ${name}`, () => {
      assert.deepEqual(validateIPAddressName(name), want);
    });
  }

  it('requires a parent reference with a resource and a name', () => {
    assert.deepEqual(simulateCreate(ipAddressResource, ip('10.0.0.1', null)).messages, [
      'spec.parentRef: Required value',
    ]);
    assert.deepEqual(
      simulateCreate(ipAddressResource, ip('10.0.0.1', { group: 'Bad_' })).messages.length,
      3,
    );
  });

  it('keeps the parent reference immutable', () => {
    const old = simulateCreate(ipAddressResource, ip('10.0.0.1')).object;
    const moved = ip('10.0.0.1', { ...parentRef, name: 'other' });
    assert.match(
      simulateUpdate(ipAddressResource, moved, old).messages.join(),
      /spec\.parentRef: Invalid value: .*field is immutable/,
    );
  });
});
