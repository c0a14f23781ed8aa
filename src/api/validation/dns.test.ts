import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from './dns.js';
import { isConfigMapKey, isHTTPHeaderName, isRelaxedEnvVarName } from './formats.js';
import {
  maskTrailingDash,
  nameFnFor,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  validatePathSegmentName,
} from './names.js';

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

describe('DNS names', () => {
  const labels: [string, string[]][] = [
    ['web', []],
    ['123-abc', []],
    ['a'.repeat(63), []],
    ['a'.repeat(64), ['must be no more than 63 characters']],
    ['Web', [LABEL_MSG]],
    ['-web', [LABEL_MSG]],
    ['web.example', ['must not contain dots']],
    ['', [LABEL_MSG]],
  ];
  for (const [value, want] of labels) {
    it(`isDNS1123Label(${JSON.stringify(value.slice(0, 20))})`, () =>
      assert.deepEqual(isDNS1123Label(value), want));
  }

  const subdomains: [string, string[]][] = [
    ['web.example.com', []],
    ['a'.repeat(253), []],
    ['a'.repeat(254), ['must be no more than 253 characters']],
    ['Web', [SUBDOMAIN_MSG]],
    ['web_1', [SUBDOMAIN_MSG]],
    ['web.', [SUBDOMAIN_MSG]],
  ];
  for (const [value, want] of subdomains) {
    it(`isDNS1123Subdomain(${JSON.stringify(value.slice(0, 20))})`, () =>
      assert.deepEqual(isDNS1123Subdomain(value), want));
  }

  it('isDNS1035Label wants a letter first', () => {
    assert.deepEqual(isDNS1035Label('svc-1'), []);
    assert.deepEqual(isDNS1035Label('1svc'), [
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    ]);
  });
});

describe('name functions', () => {
  it('masks a trailing dash of generateName the way upstream does', () => {
    assert.equal(maskTrailingDash('web-'), 'wea');
    assert.equal(maskTrailingDash('-'), 'a');
    assert.equal(maskTrailingDash('web'), 'web');
    assert.deepEqual(nameIsDNSSubdomain('web-', true), []);
    assert.deepEqual(nameIsDNSLabel('web-', true), []);
    assert.notDeepEqual(nameIsDNSSubdomain('web-', false), []);
  });

  it('checks path segment names', () => {
    assert.deepEqual(validatePathSegmentName('.', false), ["may not be '.'"]);
    assert.deepEqual(validatePathSegmentName('..', false), ["may not be '..'"]);
    assert.deepEqual(validatePathSegmentName('a/b%c', false), [
      "may not contain '/'",
      "may not contain '%'",
    ]);
    assert.deepEqual(validatePathSegmentName('..', true), []);
    assert.deepEqual(validatePathSegmentName('Web.Event_1', false), []);
  });

  it('maps name validation modes', () => {
    assert.equal(nameFnFor('dns-label'), nameIsDNSLabel);
    assert.equal(nameFnFor('dns-subdomain'), nameIsDNSSubdomain);
    assert.equal(nameFnFor('path-segment'), validatePathSegmentName);
  });
});

describe('formats', () => {
  it('checks config keys', () => {
    assert.deepEqual(isConfigMapKey('app.properties'), []);
    assert.deepEqual(isConfigMapKey('KEY_NAME-1'), []);
    assert.deepEqual(isConfigMapKey('a/b'), [
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    assert.deepEqual(isConfigMapKey('..'), ["must not be '..'"]);
    assert.deepEqual(isConfigMapKey('..data'), ["must not start with '..'"]);
  });

  it('checks relaxed env names and header names', () => {
    assert.deepEqual(isRelaxedEnvVarName('1-weird.NAME'), []);
    assert.deepEqual(isRelaxedEnvVarName('A=B'), [
      "a valid environment variable name must consist only of printable ASCII characters other than '='",
    ]);
    assert.deepEqual(isRelaxedEnvVarName(''), ['environment variable name must be non-empty']);
    assert.deepEqual(isHTTPHeaderName('X-Trace'), []);
    assert.equal(isHTTPHeaderName('X Trace').length, 1);
  });
});
