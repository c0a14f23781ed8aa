import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type FieldError, fieldErrorText, path } from '../field-error.js';
import { decodeBase64Length } from './base64.js';
import {
  getIntOrPercentValue,
  getScaledValueFromIntOrPercent,
  isNotMoreThan100Percent,
  validatePositiveIntOrPercent,
} from './int-or-string.js';
import { cidrContains, isValidCIDR, isValidIP, parseIPSloppy } from './ip.js';
import { isValidPortName, isValidPortNum, validateNonnegativeField } from './numbers.js';

const texts = (errs: FieldError[]): string[] => errs.map(fieldErrorText);

describe('numbers and ports', () => {
  it('checks port numbers', () => {
    assert.deepEqual(isValidPortNum(80), []);
    assert.deepEqual(isValidPortNum(0), ['must be between 1 and 65535, inclusive']);
    assert.deepEqual(isValidPortNum(65536), ['must be between 1 and 65535, inclusive']);
  });

  it('checks port names', () => {
    assert.deepEqual(isValidPortName('http'), []);
    assert.deepEqual(isValidPortName('8080'), ['must contain at least one letter (a-z)']);
    assert.deepEqual(isValidPortName('http--x'), ['must not contain consecutive hyphens']);
    assert.deepEqual(isValidPortName('a-very-long-port-name'), [
      'must be no more than 15 characters',
    ]);
    assert.deepEqual(isValidPortName('HTTP'), [
      'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'must contain at least one letter (a-z)',
    ]);
  });

  it('reports negative values', () => {
    assert.deepEqual(texts(validateNonnegativeField(-1, path('spec', 'replicas'))), [
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
    assert.deepEqual(validateNonnegativeField(0, path('spec', 'replicas')), []);
  });
});

describe('IntOrString', () => {
  const p = path('spec', 'strategy', 'rollingUpdate', 'maxSurge');
  it('validates ints and percents', () => {
    assert.deepEqual(validatePositiveIntOrPercent('25%', p), []);
    assert.deepEqual(validatePositiveIntOrPercent(3, p), []);
    assert.deepEqual(texts(validatePositiveIntOrPercent(-1, p)), [
      `${p}: Invalid value: -1: must be greater than or equal to 0`,
    ]);
    assert.deepEqual(texts(validatePositiveIntOrPercent('abc', p)), [
      `${p}: Invalid value: "abc": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
    ]);
    assert.deepEqual(texts(validatePositiveIntOrPercent(true, p)), [
      `${p}: Invalid value: true: must be an integer or percentage (e.g '5%%')`,
    ]);
    assert.deepEqual(texts(isNotMoreThan100Percent('110%', p)), [
      `${p}: Invalid value: "110%": must not be greater than 100%`,
    ]);
    assert.deepEqual(isNotMoreThan100Percent(500, p), []);
  });

  it('reads values as upstream does', () => {
    assert.equal(getIntOrPercentValue('25%'), 25);
    assert.equal(getIntOrPercentValue(3), 3);
    assert.equal(getIntOrPercentValue('7'), 7);
    assert.equal(getIntOrPercentValue('x'), 0);
    assert.equal(getScaledValueFromIntOrPercent('25%', 10, true), 3);
    assert.equal(getScaledValueFromIntOrPercent('25%', 10, false), 2);
    assert.equal(getScaledValueFromIntOrPercent(4, 10, false), 4);
    assert.throws(() => getScaledValueFromIntOrPercent('abc', 10, true));
  });
});

describe('IPs and CIDRs', () => {
  it('parses sloppily like upstream', () => {
    assert.equal(parseIPSloppy('10.0.0.1'), 4);
    assert.equal(parseIPSloppy('010.000.000.001'), 4);
    assert.equal(parseIPSloppy('2001:db8::1'), 6);
    assert.equal(parseIPSloppy('::ffff:1.2.3.4'), 6);
    assert.equal(parseIPSloppy('256.0.0.1'), undefined);
    assert.equal(parseIPSloppy('fe80::1%eth0'), undefined);
    assert.deepEqual(texts(isValidIP(path('spec', 'clusterIP'), 'x')), [
      'spec.clusterIP: Invalid value: "x": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
    ]);
    assert.deepEqual(isValidCIDR(path('cidr'), '10.0.0.0/8'), []);
    assert.equal(isValidCIDR(path('cidr'), '10.0.0.0/33').length, 1);
  });

  it('checks containment', () => {
    assert.ok(cidrContains('10.0.0.0/8', '10.1.2.3'));
    assert.ok(!cidrContains('10.0.0.0/8', '11.0.0.0'));
    assert.ok(cidrContains('2001:db8::/32', '2001:db8:1::'));
    assert.ok(!cidrContains('2001:db8::/32', '10.0.0.1'));
  });
});

describe('base64 as Go decodes it', () => {
  const cases: [string, string | number][] = [
    ['', 0],
    ['YQ==', 1],
    ['YWI=', 2],
    ['YWJj', 3],
    ['YW\nJj', 3],
    ['abc', 'illegal base64 data at input byte 0'],
    ['YWJjZA', 'illegal base64 data at input byte 4'],
    ['YQ=', 'illegal base64 data at input byte 3'],
    ['YQ==x', 'illegal base64 data at input byte 4'],
    ['a=bc', 'illegal base64 data at input byte 1'],
    ['!!!!', 'illegal base64 data at input byte 0'],
  ];
  for (const [input, want] of cases) {
    it(JSON.stringify(input), () => {
      const r = decodeBase64Length(input);
      assert.deepEqual(
        r,
        typeof want === 'number' ? { ok: true, bytes: want } : { ok: false, error: want },
      );
    });
  }
});
