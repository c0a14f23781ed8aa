/**
 * Label key and value checks with upstream's exact error texts
 * (`k8s.io/apimachinery/pkg/util/validation`: `IsQualifiedName`, `IsValidLabelValue`,
 * `IsDNS1123Subdomain`, `RegexError`, `MaxLenError`, `EmptyError`). Each check returns the list
 * of messages upstream returns; an empty list means valid. Callers wrap them in field errors.
 *
 * Texts are those of the released servers the target kubectl versions (1.27–1.33) talk to.
 * Upstream's newest tree (the `api/validate/content` package) words two of them differently:
 * "a valid label key …" instead of "a qualified name …", and "bytes" instead of "characters".
 *
 * @module
 */
import { isDNS1123Subdomain } from './dns.js';
import { byteLength, emptyError, maxLenError, regexError } from './messages.js';

const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MAX_LENGTH = 63;
const QUALIFIED_NAME_RE = new RegExp(`^${QUALIFIED_NAME_FMT}$`);

const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
/** Upstream `LabelValueMaxLength`. */
export const LABEL_VALUE_MAX_LENGTH = 63;
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

export { isDNS1123Subdomain as isDns1123Subdomain } from './dns.js';
/** Upstream's message builders and the subdomain check live in `src/api/validation/`. */
export { emptyError, maxLenError, regexError } from './messages.js';

/**
 * Upstream `IsQualifiedName` (label keys, annotation keys, finalizer-like names):
 * `[prefix/]name`, prefix a DNS-1123 subdomain, name at most 63 characters.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = value;
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError()}`);
    } else {
      for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
    }
  } else {
    const example = regexError(
      QUALIFIED_NAME_MSG,
      QUALIFIED_NAME_FMT,
      'MyName',
      'my.name',
      '123-abc',
    );
    return [
      `a qualified name ${example} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) {
    errs.push(`name part ${emptyError()}`);
  } else if (byteLength(name) > QUALIFIED_NAME_MAX_LENGTH) {
    errs.push(`name part ${maxLenError(QUALIFIED_NAME_MAX_LENGTH)}`);
  }
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(
      `name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return errs;
}

/** Upstream `IsValidLabelValue`: empty, or at most 63 characters of the qualified-name form. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenError(LABEL_VALUE_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}
