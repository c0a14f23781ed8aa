import assert from 'node:assert/strict';
import type { NetworkInterfaceInfo } from 'node:os';
import { describe, it } from 'node:test';
import {
  clientUrl,
  parseAdvertiseAddress,
  parseTlsSans,
  servingHosts,
  wildcardFamily,
} from './serving-names.js';

function info(address: string, family: 'IPv4' | 'IPv6'): NetworkInterfaceInfo {
  const base = { address, netmask: '', mac: '00:00:00:00:00:00', cidr: null };
  return family === 'IPv4'
    ? { ...base, family, internal: address.startsWith('127.') }
    : { ...base, family, internal: address === '::1', scopeid: 0 };
}

/** A machine with loopback, one Ethernet card (v4 + v6) and a container bridge. */
const interfaces = {
  lo: [info('127.0.0.1', 'IPv4'), info('::1', 'IPv6')],
  eth0: [info('192.168.1.20', 'IPv4'), info('2001:db8:0:0::20', 'IPv6')],
  docker0: [info('172.17.0.1', 'IPv4')],
};

describe('servingHosts', () => {
  it('names only the bound address when it is a specific one', () => {
    assert.deepEqual(servingHosts({ host: '127.0.0.1', interfaces, hostname: 'box' }), [
      '127.0.0.1',
    ]);
    assert.deepEqual(servingHosts({ host: '192.168.1.20', interfaces, hostname: 'box' }), [
      '192.168.1.20',
    ]);
    assert.deepEqual(servingHosts({ host: '[2001:db8::20]', interfaces }), ['2001:db8::20']);
  });

  it('names every IPv4 address and the host name for 0.0.0.0', () => {
    assert.deepEqual(servingHosts({ host: '0.0.0.0', interfaces, hostname: 'Box.Lan' }), [
      '127.0.0.1',
      '192.168.1.20',
      '172.17.0.1',
      'box.lan',
    ]);
  });

  it('names every address of both families for :: (Node listens dual-stack)', () => {
    assert.deepEqual(servingHosts({ host: '::', interfaces, hostname: 'box' }), [
      '127.0.0.1',
      '::1',
      '192.168.1.20',
      '2001:db8::20',
      '172.17.0.1',
      'box',
    ]);
  });

  it('adds --advertise-address and every --tls-san, without duplicates', () => {
    assert.deepEqual(
      servingHosts({
        host: '0.0.0.0',
        interfaces: { eth0: [info('10.0.0.5', 'IPv4')] },
        hostname: 'box',
        advertiseAddress: '203.0.113.9',
        tlsSans: ['my.example.test', '10.0.0.5', 'box'],
      }),
      ['10.0.0.5', 'box', '203.0.113.9', 'my.example.test'],
    );
  });

  it('leaves out a host name that is not a DNS name rather than failing', () => {
    assert.deepEqual(servingHosts({ host: '0.0.0.0', interfaces: {}, hostname: 'my box!' }), []);
  });

  it('uses the real machine by default, and never names the wildcard itself', () => {
    const hosts = servingHosts({ host: '0.0.0.0' });
    assert.ok(hosts.includes('127.0.0.1'));
    assert.ok(!hosts.includes('0.0.0.0'));
  });
});

describe('wildcardFamily', () => {
  it('knows the wildcard addresses', () => {
    assert.equal(wildcardFamily('0.0.0.0'), 4);
    assert.equal(wildcardFamily(''), 4);
    assert.equal(wildcardFamily('::'), 6);
    assert.equal(wildcardFamily('[::]'), 6);
    assert.equal(wildcardFamily('0:0:0:0:0:0:0:0'), 6);
    assert.equal(wildcardFamily('::1'), 0);
    assert.equal(wildcardFamily('localhost'), 0);
  });
});

describe('clientUrl', () => {
  it('replaces a wildcard by loopback of its family, or names --advertise-address', () => {
    assert.equal(clientUrl('https://0.0.0.0:6443'), 'https://127.0.0.1:6443');
    assert.equal(clientUrl('https://[::]:6443'), 'https://[::1]:6443');
    assert.equal(clientUrl('https://192.168.1.20:7000'), 'https://192.168.1.20:7000');
    assert.equal(clientUrl('https://0.0.0.0:6443', '203.0.113.9'), 'https://203.0.113.9:6443');
    assert.equal(clientUrl('https://0.0.0.0:6443', '2001:db8::1'), 'https://[2001:db8::1]:6443');
  });
});

describe('parseTlsSans', () => {
  it('takes repeated and comma-separated values, as k3s', () => {
    assert.deepEqual(
      parseTlsSans(['a.example.test, 10.0.0.1', 'B.example.test.', '[2001:db8::0:1]', '']),
      ['a.example.test', '10.0.0.1', 'b.example.test', '2001:db8::1'],
    );
    assert.deepEqual(parseTlsSans(['*.apps.example.test']), ['*.apps.example.test']);
  });

  it('refuses a value that is neither an IP address nor a DNS name', () => {
    assert.throws(() => parseTlsSans(['ok.test,not a name']), /invalid host "not a name"/);
    assert.throws(() => parseTlsSans(['https://x.test']), /invalid host/);
  });
});

describe('parseAdvertiseAddress', () => {
  it('takes an IP address, not a name or a wildcard', () => {
    assert.equal(parseAdvertiseAddress('192.168.1.20'), '192.168.1.20');
    assert.equal(parseAdvertiseAddress('[2001:db8::0:1]'), '2001:db8::1');
    assert.throws(() => parseAdvertiseAddress('box.lan'), /want an IP address/);
    assert.throws(() => parseAdvertiseAddress('0.0.0.0'), /want an IP address/);
    assert.throws(() => parseAdvertiseAddress('::'), /want an IP address/);
  });
});
