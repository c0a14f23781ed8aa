import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileGoPattern, goRegexpError } from '../../api/schema/go-regexp.js';
import { checkFormat, supportedFormat } from './formats.js';

describe('supportedFormat', () => {
  it('normalizes dashes and ignores what upstream strips', () => {
    assert.equal(supportedFormat('date-time'), 'datetime');
    assert.equal(supportedFormat('int32'), undefined);
    assert.equal(supportedFormat('constructor'), undefined);
  });
});

describe('checkFormat', () => {
  const cases: [string, string, boolean][] = [
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', true],
    ['uuid', '123e4567', false],
    ['datetime', '2024-01-31T23:59:59.5+01:00', true],
    ['datetime', '2024-01-31 23:59:59', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['duration', '1h30m', true],
    ['duration', '3 days', true],
    ['duration', 'soon', false],
    ['ipv4', '10.0.0.1', true],
    ['ipv4', '10.0.0.256', false],
    ['ipv6', '2001:db8::1', true],
    ['cidr', '10.0.0.0/8', true],
    ['cidr', '10.0.0.0/33', false],
    ['mac', '00:1a:2b:3c:4d:5e', true],
    ['mac', '00:1a:2b', false],
    ['hostname', 'my-host.example.com', true],
    ['hostname', '-bad', false],
    ['email', 'a@example.com', true],
    ['email', 'nope', false],
    ['uri', 'https://example.com/x', true],
    ['uri', 'relative/path', false],
    ['byte', 'aGVsbG8=', true],
    ['byte', 'not base64!', false],
  ];
  for (const [format, value, ok] of cases) {
    it(`${format} ${JSON.stringify(value)} → ${ok}`, () => {
      assert.equal(checkFormat(format, value), ok);
    });
  }
});

describe('Go patterns', () => {
  it('translates RE2-only spellings', () => {
    const c = compileGoPattern('(?i)^[[:alpha:]]+\\z');
    assert.ok(c.ok && c.regex.test('AbC') && !c.regex.test('ab1'));
  });
  it('reports Go errors for Perl syntax and unbalanced groups', () => {
    assert.equal(
      goRegexpError('a(?!b)'),
      'error parsing regexp: invalid or unsupported Perl syntax: `(?!`',
    );
    assert.equal(goRegexpError('(ab'), 'error parsing regexp: missing closing ): `(ab`');
    assert.equal(goRegexpError('^[a-z]+$'), undefined);
  });
});
