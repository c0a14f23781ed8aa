/**
 * The string formats a CRD schema may use (upstream `apiserver/validation/formats.go`) and
 * their checks (kube-openapi `strfmt`). Any other format — including `int32`, `int64`,
 * `float` and `double`, which upstream strips before validating — is ignored.
 *
 * Names are normalized as go-openapi does: `date-time` and `datetime` are the same format.
 *
 * @module
 */
import { decodeBase64Length } from '../../api/validation/base64.js';
import { parseCIDRSloppy } from '../../api/validation/ip.js';
import { ipFamily } from '../../util/ip.js';

type FormatCheck = (s: string) => boolean;

/** The normalized name of a supported format, or undefined when upstream ignores it. */
export function supportedFormat(format: string | undefined): string | undefined {
  if (!format) return undefined;
  const normalized = format.replaceAll('-', '');
  return Object.hasOwn(CHECKS, normalized) ? normalized : undefined;
}

/** Whether `value` is valid for the (normalized, supported) `format`. */
export function checkFormat(format: string, value: string): boolean {
  const check = Object.hasOwn(CHECKS, format) ? CHECKS[format] : undefined;
  return check === undefined || check(value);
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z0-9\p{S}\p{L}])(-?[a-zA-Z0-9\p{S}\p{L}]){1,62})$/u;
const DATE_TIME_TAIL = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const RGB_PART = '\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*';
const RGB_COLOR = new RegExp(`^rgb\\(${RGB_PART},${RGB_PART},${RGB_PART}\\)$`);
const EMAIL_ADDR = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9.-]+$|^"[^"\\]*"@[A-Za-z0-9.-]+$/;
const TEXT_ENCODER = new TextEncoder();

/** Go's `net.ParseIP` (strict: no leading zeros in IPv4 octets, no zones). */
function parseIP(s: string): 4 | 6 | undefined {
  if (/^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(s)) {
    return 4;
  }
  return s.includes(':') && !s.includes('%') && ipFamily(s) === 6 ? 6 : undefined;
}

/** Go's `time.Parse("2006-01-02", s)`: a real calendar day. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

/** strfmt `IsDateTime`: a date, `T`, and `hh:mm:ss[.frac](Z|±hh:mm)`, case-insensitively. */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0] ?? '')) return false;
  const m = DATE_TIME_TAIL.exec(parts[1] ?? '');
  return m !== null && (m[1] ?? '') <= '23' && (m[2] ?? '') <= '59' && (m[3] ?? '') <= '59';
}

const GO_DURATION = /^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/;
const UNIT_VARIANTS: readonly (readonly string[])[] = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];

/** strfmt `ParseDuration`: Go's `time.ParseDuration`, else `<n> <unit>` groups (`3 days`). */
function isDuration(s: string): boolean {
  if (s === '0' || GO_DURATION.test(s)) return true;
  for (const m of s.matchAll(/(\d+)\s*([A-Za-zµ]+)/g)) {
    const unit = (m[2] ?? '').trim().toLowerCase();
    const known = UNIT_VARIANTS.some((variants) =>
      variants.some((v, i) => v === unit || (i === variants.length - 1 && unit.startsWith(v))),
    );
    if (known) return true;
  }
  return false;
}

/** Go's `url.ParseRequestURI`: an absolute URI or an absolute path, no control characters. */
function isRequestURI(s: string): boolean {
  if (s === '' || /\p{Cc}/u.test(s)) return false;
  if (s.startsWith('/')) return true;
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:(.*)$/.exec(s);
  if (!m) return false;
  const rest = m[1] ?? '';
  if (!rest.startsWith('//')) return true;
  const authority = rest.slice(2).split(/[/?#]/)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  if (/\s/.test(host)) return false;
  const port = /^(?:\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(host)?.[1];
  return port === undefined || /^\d*$/.test(port);
}

/** Go's `net/mail.ParseAddress` for the forms people use: `a@b` and `Name <a@b>`. */
function isEmail(s: string): boolean {
  const angle = /^[^<>]*<([^<>]+)>$/.exec(s.trim());
  return EMAIL_ADDR.test(angle ? (angle[1] ?? '') : s);
}

/** strfmt `IsHostname`: the RFC 1034 pattern, at most 255 bytes, labels at most 63 bytes. */
function isHostname(s: string): boolean {
  if (!HOSTNAME.test(s) || TEXT_ENCODER.encode(s).length > 255) return false;
  return s.split('.').every((label) => TEXT_ENCODER.encode(label).length <= 63);
}

/** Go's `net.ParseMAC`: 6, 8 or 20 octets separated by `:` or `-`, or dotted 4-hex groups. */
function isMAC(s: string): boolean {
  const octets = s.split(/[:-]/);
  if (/^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2})*$/.test(s)) {
    return [6, 8, 20].includes(octets.length);
  }
  const groups = s.split('.');
  return groups.every((g) => /^[0-9a-fA-F]{4}$/.test(g)) && [3, 4, 10].includes(groups.length);
}

function isISBN(s: string, version: 10 | 13): boolean {
  const digits = s.replace(/[\s-]+/g, '');
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(digits)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * Number(digits[i]);
    sum += digits[9] === 'X' ? 100 : 10 * Number(digits[9]);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(digits[12]);
}

function isCreditCard(s: string): boolean {
  const digits = s.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = Number(digits[i]);
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

const CHECKS: Readonly<Record<string, FormatCheck>> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => s.includes('.') && parseIP(s) !== undefined,
  ipv6: (s) => s.includes(':') && parseIP(s) !== undefined,
  cidr: (s) =>
    parseCIDRSloppy(s) !== undefined && parseIP(s.slice(0, s.indexOf('/'))) !== undefined,
  mac: isMAC,
  uuid: (s) => UUID.test(s),
  uuid3: (s) => UUID3.test(s),
  uuid4: (s) => UUID4.test(s),
  uuid5: (s) => UUID5.test(s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: (s) => /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(s),
  rgbcolor: (s) => RGB_COLOR.test(s),
  byte: (s) => decodeBase64Length(s).ok,
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};
