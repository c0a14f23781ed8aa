import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ProtobufDecodeError } from './errors.js';
import { fBytes, fPacked, fVarint, tag, varint } from './testing/wire-writer.js';
import {
  isZeroField,
  readFields,
  readPackedVarints,
  toInt32,
  toInt64,
  WIRE_BYTES,
  WIRE_FIXED32,
  WIRE_FIXED64,
  WIRE_VARINT,
  WireReader,
} from './wire.js';

const U64_MAX = 2n ** 64n - 1n;

describe('protobuf wire reader: varints', () => {
  const cases: { bytes: number[]; value: bigint }[] = [
    { bytes: [0x00], value: 0n },
    { bytes: [0x01], value: 1n },
    { bytes: [0x7f], value: 127n },
    { bytes: [0x80, 0x01], value: 128n },
    { bytes: [0xac, 0x02], value: 300n },
    { bytes: [0xff, 0xff, 0xff, 0x7f], value: 2n ** 28n - 1n },
    { bytes: [0x80, 0x80, 0x80, 0x80, 0x01], value: 2n ** 28n },
    { bytes: [0xff, 0xff, 0xff, 0xff, 0x07], value: 2n ** 31n - 1n },
    { bytes: [0x80, 0x80, 0x80, 0x80, 0x10], value: 2n ** 32n },
    { bytes: [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], value: 2n ** 63n },
    { bytes: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], value: U64_MAX },
    // Bits past 64 are dropped, as Go's generated decoders do.
    { bytes: [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f], value: U64_MAX },
  ];
  for (const c of cases) {
    it(`reads ${c.value} from ${Buffer.from(c.bytes).toString('hex')}`, () => {
      const reader = new WireReader(Buffer.from(c.bytes));
      assert.equal(reader.readVarint(), c.value);
      assert.equal(reader.done, true);
    });
  }

  it('rejects truncated and overlong varints', () => {
    for (const bytes of [[0x80], [0xff, 0xff], Array(10).fill(0xff), Array(11).fill(0x80)]) {
      assert.throws(() => new WireReader(Buffer.from(bytes)).readVarint(), ProtobufDecodeError);
    }
  });

  it('converts to int32 and int64 as Go does (negative int32 is a 10-byte varint)', () => {
    const minusOne = new WireReader(varint(-1)).readVarint();
    assert.equal(varint(-1).length, 10);
    assert.equal(toInt32(minusOne), -1);
    assert.equal(toInt64(minusOne), -1);
    assert.equal(toInt32(2n ** 32n + 5n), 5);
    assert.equal(toInt32(2n ** 31n), -(2 ** 31));
    assert.equal(toInt64(2n ** 63n), -(2n ** 63n));
  });

  it('keeps int64 values beyond 2^53 exact, as bigints (a ControllerRevision revision)', () => {
    assert.equal(toInt64(3546343826724305832n), 3546343826724305832n);
    assert.equal(toInt64(2n ** 53n - 1n), 2 ** 53 - 1);
    assert.equal(toInt64(2n ** 64n - 2n), -2);
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        const read = toInt64(new WireReader(varint(v)).readVarint());
        assert.equal(BigInt(read), v);
        assert.equal(
          typeof read,
          Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? 'number' : 'bigint',
        );
      }),
    );
  });

  it('round-trips any 64-bit varint', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: U64_MAX }), (v) => {
        const reader = new WireReader(varint(v));
        assert.equal(reader.readVarint(), v);
        assert.equal(reader.done, true);
      }),
    );
  });

  it('reads int32 and int64 values back through their varints', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.maxSafeInteger(),
        (i32, i64) => {
          assert.equal(toInt32(new WireReader(varint(i32)).readVarint()), i32);
          assert.equal(toInt64(new WireReader(varint(i64)).readVarint()), i64);
        },
      ),
    );
  });
});

describe('protobuf wire reader: fields', () => {
  it('reads each wire type', () => {
    const buf = Buffer.concat([
      fVarint(1, 150),
      fBytes(2, 'testing'),
      tag(3, WIRE_FIXED64),
      Buffer.alloc(8, 1),
      tag(4, WIRE_FIXED32),
      Buffer.alloc(4, 2),
      fVarint(536870911, 1),
    ]);
    const fields = readFields(buf);
    assert.deepEqual(
      fields.map((f) => [f.no, f.wireType]),
      [
        [1, WIRE_VARINT],
        [2, WIRE_BYTES],
        [3, WIRE_FIXED64],
        [4, WIRE_FIXED32],
        [536870911, WIRE_VARINT],
      ],
    );
    assert.equal(fields[0]?.varint, 150n);
    assert.equal(fields[1]?.bytes.toString(), 'testing');
    assert.equal(fields[2]?.bytes.length, 8);
    assert.equal(fields[3]?.bytes.length, 4);
  });

  const bad: { name: string; bytes: Buffer; message: RegExp }[] = [
    { name: 'field number 0', bytes: Buffer.from([0x00, 0x01]), message: /illegal field number 0/ },
    { name: 'start group', bytes: tag(1, 3), message: /unsupported wire type 3/ },
    { name: 'end group', bytes: tag(1, 4), message: /unsupported wire type 4/ },
    { name: 'wire type 6', bytes: tag(1, 6), message: /unsupported wire type 6/ },
    { name: 'wire type 7', bytes: tag(1, 7), message: /unsupported wire type 7/ },
    {
      name: 'payload past the end',
      bytes: Buffer.from([0x0a, 0x05, 0x61]),
      message: /needs 5 bytes/,
    },
    { name: 'fixed64 past the end', bytes: Buffer.from([0x09, 0x00]), message: /needs 8 bytes/ },
    { name: 'tag past the end', bytes: Buffer.from([0x80]), message: /unexpected end/ },
    {
      name: 'field number too large',
      bytes: varint(2n ** 29n * 8n),
      message: /tag 4294967296 is out of range/,
    },
  ];
  for (const c of bad) {
    it(`rejects ${c.name}`, () => {
      assert.throws(
        () => readFields(c.bytes),
        (e: unknown) => {
          assert.ok(e instanceof ProtobufDecodeError);
          assert.equal(e.code, 400);
          assert.equal(e.reason, 'BadRequest');
          assert.match(e.message, c.message);
          return true;
        },
      );
    });
  }

  it('reads packed varints', () => {
    const packed = readFields(fPacked(7, [1, 0, 300, -1]))[0];
    assert.ok(packed !== undefined);
    assert.deepEqual(readPackedVarints(packed.bytes), [1n, 0n, 300n, U64_MAX]);
  });

  const fieldArb = fc.oneof(
    fc.record({
      no: fc.integer({ min: 1, max: 2 ** 29 - 1 }),
      v: fc.bigInt({ min: 0n, max: U64_MAX }),
    }),
    fc.record({
      no: fc.integer({ min: 1, max: 2 ** 29 - 1 }),
      b: fc.uint8Array({ maxLength: 40 }),
    }),
  );

  it('round-trips any sequence of varint and length-delimited fields', () => {
    fc.assert(
      fc.property(fc.array(fieldArb, { maxLength: 12 }), (fields) => {
        const buf = Buffer.concat(
          fields.map((f) => ('v' in f ? fVarint(f.no, f.v) : fBytes(f.no, Buffer.from(f.b)))),
        );
        const read = readFields(buf);
        assert.equal(read.length, fields.length);
        read.forEach((r, i) => {
          const f = fields[i];
          assert.ok(f !== undefined);
          assert.equal(r.no, f.no);
          if ('v' in f) assert.equal(r.varint, f.v);
          else assert.deepEqual([...r.bytes], [...f.b]);
        });
      }),
    );
  });

  it('fails only with ProtobufDecodeError on arbitrary bytes, and on every truncation', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          readFields(Buffer.from(bytes));
        } catch (e) {
          assert.ok(e instanceof ProtobufDecodeError, String(e));
        }
      }),
    );
    fc.assert(
      fc.property(fc.array(fieldArb, { minLength: 1, maxLength: 5 }), fc.nat(), (fields, cut) => {
        const buf = Buffer.concat(
          fields.map((f) => ('v' in f ? fVarint(f.no, f.v) : fBytes(f.no, Buffer.from(f.b)))),
        );
        const last = fields[fields.length - 1];
        const lastLen =
          last === undefined
            ? 0
            : ('v' in last ? fVarint(last.no, last.v) : fBytes(last.no, Buffer.from(last.b)))
                .length;
        // Keeping at least one but not all of the last field's bytes leaves it incomplete.
        const end = buf.length - 1 - (cut % (lastLen - 1));
        assert.throws(() => readFields(buf.subarray(0, end)), ProtobufDecodeError);
      }),
    );
  });
});

describe('protobuf wire reader: zero fields', () => {
  const cases: { name: string; field: Buffer; zero: boolean }[] = [
    { name: 'varint 0', field: fVarint(9, 0), zero: true },
    { name: 'varint 1', field: fVarint(9, 1), zero: false },
    { name: 'empty string or message', field: fBytes(9, ''), zero: true },
    { name: 'non-empty string', field: fBytes(9, 'x'), zero: false },
    {
      name: 'message of zero fields',
      field: fBytes(9, [fVarint(1, 0), fBytes(2, ''), fBytes(3, [fVarint(1, 0)])]),
      zero: true,
    },
    {
      name: 'message with one set field',
      field: fBytes(9, [fVarint(1, 0), fBytes(3, [fVarint(1, 2)])]),
      zero: false,
    },
    {
      name: 'zero fixed32',
      field: Buffer.concat([tag(9, WIRE_FIXED32), Buffer.alloc(4)]),
      zero: true,
    },
    {
      name: 'non-zero fixed64',
      field: Buffer.concat([tag(9, WIRE_FIXED64), Buffer.alloc(8, 1)]),
      zero: false,
    },
  ];
  for (const c of cases) {
    it(`${c.zero ? 'treats' : 'does not treat'} ${c.name} as zero`, () => {
      const [field] = readFields(c.field);
      assert.ok(field !== undefined);
      assert.equal(isZeroField(field), c.zero);
    });
  }
});
