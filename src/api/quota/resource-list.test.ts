import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatQuantity, mustParseQuantity } from '../validation/quantity.js';
import {
  addLists,
  addQuantity,
  exceededNames,
  listsEqual,
  mask,
  parseResourceList,
  prettyPrint,
  removeZeros,
  roundUpToUnit,
  subtractNonNegative,
  toJsonList,
  ZERO,
} from './resource-list.js';

const q = mustParseQuantity;
const list = (o: Record<string, string>) => parseResourceList(o);

describe('quantity arithmetic (Quantity.Add format rules)', () => {
  const cases: Array<[string, string[], string]> = [
    ['zero takes the other format', ['0', '1Gi'], '1Gi'],
    ['binary + binary', ['1Gi', '512Mi'], '1536Mi'],
    ['the first operand keeps its format', ['1Gi', '1M'], '1074741824'],
    ['decimal first stays decimal', ['1M', '1Gi'], '1074741824'],
    ['milli cores', ['100m', '250m', '1'], '1350m'],
    ['counts', ['1', '1', '1'], '3'],
  ];
  for (const [name, values, want] of cases) {
    it(name, () => {
      const sum = values.map((v) => q(v)).reduce((a, b) => addQuantity(a, b), ZERO);
      assert.equal(formatQuantity(sum), want);
    });
  }

  it('rounds storage up to whole bytes', () => {
    assert.equal(formatQuantity(roundUpToUnit(q('1500m'))), '2');
    assert.equal(formatQuantity(roundUpToUnit(q('1Gi'))), '1Gi');
  });
});

describe('resource lists', () => {
  it('adds, subtracts without going negative, masks and drops zeros', () => {
    const a = list({ pods: '2', 'requests.cpu': '500m' });
    const b = list({ pods: '1', 'limits.cpu': '1' });
    assert.deepEqual(toJsonList(addLists(a, b)), {
      'limits.cpu': '1',
      pods: '3',
      'requests.cpu': '500m',
    });
    assert.deepEqual(toJsonList(subtractNonNegative(b, a)), {
      'limits.cpu': '1',
      pods: '0',
      'requests.cpu': '0',
    });
    assert.deepEqual(toJsonList(removeZeros(subtractNonNegative(b, a))), { 'limits.cpu': '1' });
    assert.deepEqual(toJsonList(mask(a, ['pods', 'secrets'])), { pods: '2' });
  });

  it('compares by value and names what exceeds', () => {
    assert.ok(listsEqual(list({ memory: '1Gi' }), list({ memory: '1024Mi' })));
    assert.ok(!listsEqual(list({ memory: '1Gi' }), list({ memory: '1Gi', pods: '1' })));
    assert.deepEqual(exceededNames(list({ pods: '3', cpu: '1' }), list({ pods: '2', cpu: '1' })), [
      'pods',
    ]);
  });

  it('prints name=value sorted by name, as upstream prettyPrint', () => {
    assert.equal(
      prettyPrint(list({ 'requests.storage': '1Gi', persistentvolumeclaims: '1' })),
      'persistentvolumeclaims=1,requests.storage=1Gi',
    );
  });

  it('sums exactly whatever the order (property)', () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
    fc.assert(
      fc.property(fc.array(amount, { maxLength: 20 }), (nanos) => {
        const items = nanos.map(
          (n) => new Map([['cpu', { nanos: n, format: 'DecimalSI' as const }]]),
        );
        const forward = items.reduce((acc, l) => addLists(acc, l), new Map());
        const backward = [...items].reverse().reduce((acc, l) => addLists(acc, l), new Map());
        const total = nanos.reduce((a, b) => a + b, 0n);
        assert.equal(forward.get('cpu')?.nanos ?? 0n, total);
        assert.ok(listsEqual(forward, backward));
      }),
    );
  });
});
