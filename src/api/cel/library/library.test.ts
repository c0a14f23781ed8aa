/**
 * Table tests of the Kubernetes CEL libraries, evaluated through a real rule environment so
 * that registration, overload resolution and the functions are tested together.
 *
 * @module
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ruleEnvironment } from '../environment.js';

const env = ruleEnvironment('map<string, dyn>', false);

function evaluate(expr: string): unknown {
  return env.evaluate(expr, { self: {}, oldSelf: {} });
}

function errorOf(expr: string): string {
  try {
    evaluate(expr);
  } catch (e) {
    return (e as Error).message.split('\n')[0] ?? '';
  }
  return '<no error>';
}

const TRUE_CASES: Readonly<Record<string, readonly string[]>> = {
  lists: [
    '[1, 2, 2, 3].isSorted()',
    '![3, 1].isSorted()',
    '["a", "b"].isSorted()',
    '[].isSorted()',
    '[1, 2, 3].sum() == 6',
    '[1.5, 2.5].sum() == 4.0',
    '[].sum() == 0',
    '[duration("1s"), duration("500ms")].sum() == duration("1.5s")',
    '[3, 1, 2].min() == 1',
    '[3, 1, 2].max() == 3',
    '["b", "a"].min() == "a"',
    '[1, 2, 1].indexOf(1) == 0',
    '[1, 2, 1].lastIndexOf(1) == 2',
    '[1, 2].indexOf(9) == -1',
    '[[1], [2]].indexOf([2]) == 1',
  ],
  regex: [
    '"abc 123".find("[0-9]+") == "123"',
    '"abc".find("[0-9]+") == ""',
    '"123 abc 456".findAll("[0-9]+") == ["123", "456"]',
    '"123 abc 456".findAll("[0-9]+", 1) == ["123"]',
    '"a1b2".findAll("[0-9]", 0) == []',
    '"ABC".find("(?i)b") == "B"',
  ],
  urls: [
    'isURL("https://example.com/path")',
    'isURL("/absolute-path")',
    '!isURL("example.com")',
    '!isURL("")',
    'url("https://example.com:80/").getHost() == "example.com:80"',
    'url("https://[::1]:80/").getHost() == "[::1]:80"',
    'url("https://[::1]:80/").getHostname() == "::1"',
    'url("https://example.com:80/").getPort() == "80"',
    'url("https://example.com/").getPort() == ""',
    'url("HTTPS://example.com/").getScheme() == "https"',
    'url("/path").getScheme() == ""',
    'url("https://example.com/path with spaces/").getEscapedPath() == "/path%20with%20spaces/"',
    'url("https://example.com/a%2Fb").getEscapedPath() == "/a%2Fb"',
    'url("https://example.com/?k=v&k=v2&k2").getQuery() == {"k": ["v", "v2"], "k2": [""]}',
    'url("https://example.com/?a=1+2%21").getQuery()["a"] == ["1 2!"]',
  ],
  quantity: [
    'isQuantity("1.5Gi")',
    '!isQuantity("1.5Gx")',
    'quantity("1") == quantity("1000m")',
    'quantity("1Ki") == quantity("1024")',
    'quantity("2Gi").isGreaterThan(quantity("2G"))',
    'quantity("100m").isLessThan(quantity("1"))',
    'quantity("1").compareTo(quantity("1000m")) == 0',
    'quantity("1").compareTo(quantity("2")) == -1',
    'quantity("-5").sign() == -1 && quantity("0").sign() == 0',
    'quantity("1").add(quantity("500m")) == quantity("1.5")',
    'quantity("1").add(2).asInteger() == 3',
    'quantity("10").sub(quantity("500m")) == quantity("9500m")',
    'quantity("10").sub(3).asInteger() == 7',
    'quantity("1.5").asApproximateFloat() == 1.5',
    'quantity("1k").isInteger() && !quantity("500m").isInteger()',
  ],
  strings: [
    '"hello".charAt(1) == "e"',
    '"hello".charAt(5) == ""',
    '"hello hello".replace("he", "we") == "wello wello"',
    '"aaa".replace("a", "b", 2) == "bba"',
    '"ab".replace("", "-") == "-a-b-"',
    '"%s has %d items".format([dyn("cart"), dyn(3)]) == "cart has 3 items"',
    '"%.2f".format([3.14159]) == "3.14"',
    '"%x %X %o %b".format([255, 255, 8, 5]) == "ff FF 10 101"',
    '"100%%".format([]) == "100%"',
    'strings.quote("a\\"b") == "\\"a\\\\\\"b\\""',
    '"Hello".lowerAscii() == "hello" && "a,b".split(",") == ["a", "b"]',
    'string(duration("1m30s")) == "90s"',
    'string(timestamp("2024-01-02T03:04:05Z")) == "2024-01-02T03:04:05Z"',
  ],
  sets: [
    'sets.contains([1, 2, 3], [3, 1])',
    '!sets.contains([1], [2])',
    'sets.equivalent([1, 2, 2], [2, 1])',
    'sets.intersects([1, 2], [2, 3])',
    '!sets.intersects([1], [])',
  ],
};

describe('Kubernetes CEL libraries', () => {
  for (const [library, cases] of Object.entries(TRUE_CASES)) {
    describe(library, () => {
      for (const expr of cases) {
        it(expr, () => assert.equal(evaluate(expr), true));
      }
    });
  }

  const ERRORS: readonly (readonly [string, string])[] = [
    ['[].min()', 'min called on empty list'],
    ['[].max()', 'max called on empty list'],
    [
      'url("example.com")',
      'URL parse error during conversion from string: parse "example.com": invalid URI for request',
    ],
    [
      'quantity("abc")',
      "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    ],
    ['quantity("1.5").asInteger()', 'cannot convert value to integer'],
    ['"hello".charAt(6)', 'index out of range: 6'],
    [
      '"%d".format(["x"])',
      'error during formatting: decimal clause can only be used on integers, was given string',
    ],
  ];
  describe('errors', () => {
    for (const [expr, message] of ERRORS) {
      it(expr, () => assert.equal(errorOf(expr), message));
    }
  });

  it('returns values of the right CEL types', () => {
    assert.equal(evaluate('[1, 2].sum()'), 3n);
    assert.equal(evaluate('[0.5, 0.25].sum()'), 0.75);
    assert.deepEqual(evaluate('"a1b22".findAll("[0-9]+")'), ['1', '22']);
    assert.equal(evaluate('quantity("2Gi").add(quantity("512Mi")).asInteger()'), 2684354560n);
  });
});
