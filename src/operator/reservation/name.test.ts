/**
 * Tests for `reservationName`: the Go-compatible name in the standard partition, collisions
 * where buckets are the same bucket (any region of a partition, equivalent endpoint URLs),
 * separation where they are not, and DNS-1123 validity (fast-check).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { awsPartition, endpointScope, reservationName } from './name.js';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

describe('reservationName', () => {
  it('standard partition: s3- + the first 56 hex digits of sha256(bucket), as the Go operator', () => {
    const hex = createHash('sha256').update('celld-data').digest('hex');
    assert.equal(reservationName('celld-data', 'us-east-1'), `s3-${hex.slice(0, 56)}`);
    assert.equal(reservationName('celld-data', 'us-east-1').length, 59);
  });

  const same: Array<
    [string, Parameters<typeof reservationName>, Parameters<typeof reservationName>]
  > = [
    ['regions of one partition (names are global there)', ['b', 'us-east-1'], ['b', 'eu-west-3']],
    ['an empty endpoint is AWS', ['b', 'us-east-1', ''], ['b', 'us-east-1']],
    [
      'endpoint: scheme and default port',
      ['b', 'x', 'http://minio:80/'],
      ['b', 'y', 'https://minio'],
    ],
    [
      'endpoint: host case and trailing slash',
      ['b', 'x', 'https://MinIO.local:9000/'],
      ['b', 'x', 'https://minio.local:9000'],
    ],
    ['china regions share a partition', ['b', 'cn-north-1'], ['b', 'cn-northwest-1']],
  ];
  for (const [name, a, b] of same) {
    it(`same scope: ${name}`, () => assert.equal(reservationName(...a), reservationName(...b)));
  }

  const different: Array<
    [string, Parameters<typeof reservationName>, Parameters<typeof reservationName>]
  > = [
    ['different buckets', ['a', 'us-east-1'], ['b', 'us-east-1']],
    ['AWS and GovCloud', ['b', 'us-east-1'], ['b', 'us-gov-west-1']],
    ['AWS and a custom endpoint', ['b', 'us-east-1'], ['b', 'us-east-1', 'https://minio']],
    ['two endpoints', ['b', 'x', 'https://minio-a'], ['b', 'x', 'https://minio-b']],
    ['endpoint ports', ['b', 'x', 'http://minio:9000'], ['b', 'x', 'http://minio:9001']],
    ['endpoint paths', ['b', 'x', 'https://gw/tenant-a'], ['b', 'x', 'https://gw/tenant-b']],
  ];
  for (const [name, a, b] of different) {
    it(`different scope: ${name}`, () =>
      assert.notEqual(reservationName(...a), reservationName(...b)));
  }

  it('is always a DNS-1123 label', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.option(fc.string(), { nil: undefined }),
        (b, r, e) => {
          assert.match(reservationName(b, r, e), DNS_LABEL);
        },
      ),
    );
  });
});

describe('awsPartition and endpointScope', () => {
  const partitions: Array<[string, string]> = [
    ['us-east-1', 'aws'],
    ['ap-southeast-2', 'aws'],
    ['cn-north-1', 'aws-cn'],
    ['us-gov-east-1', 'aws-us-gov'],
    ['us-iso-east-1', 'aws-iso'],
    ['us-isob-east-1', 'aws-iso-b'],
    ['eu-isoe-west-1', 'aws-iso-e'],
  ];
  for (const [region, want] of partitions)
    it(`${region} → ${want}`, () => assert.equal(awsPartition(region), want));

  it('an unparsable endpoint still names a scope', () => {
    assert.equal(endpointScope(' Not A URL '), 'not a url');
    assert.equal(endpointScope('https://h:8443/p//'), 'h:8443/p');
  });
});
