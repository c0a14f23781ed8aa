import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, it } from 'node:test';
import { advertisedAddress } from './advertise-address.js';

function nic(address: string, internal = false): NetworkInterfaceInfo {
  const v4 = !address.includes(':');
  return {
    address,
    netmask: v4 ? '255.255.255.0' : 'ffff:ffff:ffff:ffff::',
    family: v4 ? 'IPv4' : 'IPv6',
    mac: '00:00:00:00:00:00',
    internal,
    cidr: null,
    ...(v4 ? {} : { scopeid: 0 }),
  } as NetworkInterfaceInfo;
}

const MACHINE = {
  lo: [nic('127.0.0.1', true), nic('::1', true)],
  eth0: [nic('fd00::2'), nic('169.254.1.1'), nic('192.0.2.2')],
  eth1: [nic('198.51.100.3')],
};

describe('advertisedAddress', () => {
  const cases: {
    name: string;
    host: string;
    advertise?: string;
    interfaces?: typeof MACHINE | Record<string, NetworkInterfaceInfo[]>;
    want: string | undefined;
  }[] = [
    {
      name: '--advertise-address wins',
      host: '192.0.2.2',
      advertise: '203.0.113.7',
      want: '203.0.113.7',
    },
    { name: 'a specific bind address', host: '198.51.100.3', want: '198.51.100.3' },
    {
      name: 'loopback: the first global IPv4 of the interfaces (not link-local, not IPv6)',
      host: '127.0.0.1',
      want: '192.0.2.2',
    },
    { name: 'the IPv4 wildcard: the same', host: '0.0.0.0', want: '192.0.2.2' },
    { name: 'the IPv6 wildcard: the same', host: '::', want: '192.0.2.2' },
    { name: 'a name: the same', host: 'localhost', want: '192.0.2.2' },
    {
      name: 'loopback only: none (upstream would refuse to start)',
      host: '127.0.0.1',
      interfaces: { lo: MACHINE.lo },
      want: undefined,
    },
    {
      name: 'an IPv6 advertise address: none (the service range is IPv4)',
      host: '127.0.0.1',
      advertise: 'fd00::7',
      want: undefined,
    },
    {
      name: 'a loopback advertise address: none (no endpoint may be loopback)',
      host: '0.0.0.0',
      advertise: '127.0.0.2',
      want: undefined,
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(
        advertisedAddress({
          host: c.host,
          advertiseAddress: c.advertise,
          interfaces: c.interfaces ?? MACHINE,
        }),
        c.want,
      );
    });
  }
});
