/**
 * `reservationName`: the cluster-wide name of the reservation for one bucket. The name is the
 * lock: two fleets that would share a bucket must compute the same name, so that the API
 * server's create, which admits exactly one of them, arbitrates (docs/design/operator-api.md §2).
 *
 * The scope is the bucket's namespace, not the fleet's settings:
 * - AWS S3 bucket names are unique per partition, not per region, so the region names the
 *   partition only (`cn-north-1` → `aws-cn`). Two fleets naming the same bucket with different
 *   regions must still collide. In the standard partition the name is exactly the Go operator's
 *   (`s3-` + the first 56 hex digits of sha256(bucket)), so reservations stay comparable.
 * - With a custom endpoint (MinIO, R2 …) bucket names are unique per endpoint: the scope is the
 *   endpoint's host and path (scheme and default ports dropped: `http://minio:80/` and
 *   `https://minio` are the same store).
 *
 * `s3-` + 56 hex digits is 59 characters: a valid DNS-1123 label (≤ 63) and subdomain.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** 56 hex digits = 224 bits: collisions are out of reach, and the name stays under 63. */
const HASH_DIGITS = 56;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The AWS partition of a region; bucket names are unique within one partition. */
export function awsPartition(region: string): string {
  if (region.startsWith('cn-')) return 'aws-cn';
  if (region.startsWith('us-gov-')) return 'aws-us-gov';
  const iso = /^[a-z]{2}-iso([a-z]?)-/.exec(region);
  if (iso) return iso[1] ? `aws-iso-${iso[1]}` : 'aws-iso';
  return 'aws';
}

/** A custom endpoint as a scope: lowercase host without a default port, path without '/'s. */
export function endpointScope(url: string): string {
  let host: string;
  let path: string;
  try {
    const parsed = new URL(url.trim());
    host =
      parsed.hostname +
      (parsed.port && !['80', '443'].includes(parsed.port) ? `:${parsed.port}` : '');
    path = parsed.pathname;
  } catch {
    // Schema validation should have refused it; an unparsable URL still names a scope.
    host = url.trim().toLowerCase();
    path = '';
  }
  return `${host}${path.replace(/\/+$/, '')}`;
}

/** The reservation name for a bucket scope (see the module note). */
export function reservationName(bucket: string, region: string, endpoint?: string): string {
  if (endpoint !== undefined && endpoint.trim() !== '') {
    return `s3-${sha256Hex(`endpoint:${endpointScope(endpoint)}\0${bucket}`).slice(0, HASH_DIGITS)}`;
  }
  const partition = awsPartition(region);
  if (partition === 'aws') return `s3-${sha256Hex(bucket).slice(0, HASH_DIGITS)}`;
  return `s3-${sha256Hex(`partition:${partition}\0${bucket}`).slice(0, HASH_DIGITS)}`;
}
