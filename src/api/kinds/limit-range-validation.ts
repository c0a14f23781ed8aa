/**
 * How a LimitRange item's amounts must relate (upstream `ValidateLimitRange`, after
 * `SetDefaults_LimitRangeItem` ran): min ≤ default request ≤ default ≤ max, a ratio of at least
 * 1 and at most max/min, no defaults on a `Pod` item, a storage bound on a
 * `PersistentVolumeClaim` item. Values are printed as the quantity's string; upstream prints
 * a `resource.Quantity` struct there (`%#v`), so only the part after the value differs.
 *
 * @module
 */
import { type FieldError, type FieldPath, fieldErrors } from '../field-error.js';
import { isQualifiedName } from '../validation/label-names.js';
import {
  compareQuantities,
  formatQuantity,
  mustParseQuantity,
  type Quantity,
} from '../validation/quantity.js';
import { getObj, type JsonObject } from './json.js';

const STANDARD_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);
const ONE = mustParseQuantity('1');

function amounts(item: JsonObject, field: string): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, raw] of Object.entries(getObj(item, field) ?? {})) {
    // The caller has checked every amount parses, so each is a string or a number.
    if (typeof raw === 'string' || typeof raw === 'number') out.set(name, mustParseQuantity(raw));
  }
  return out;
}

/** Upstream `validateLimitRangeTypeName`. */
export function limitTypeErrors(type: unknown, p: FieldPath): FieldError[] {
  const value = typeof type === 'string' ? type : '';
  const msgs = isQualifiedName(value);
  if (msgs.length > 0) return msgs.map((m) => fieldErrors.invalid(p, value, m));
  if (!value.includes('/') && !STANDARD_TYPES.has(value)) {
    return [fieldErrors.invalid(p, value, 'must be a standard limit type or fully qualified')];
  }
  return [];
}

/** The item's errors; its amounts already parse (checked by the caller). */
export function limitRangeItemErrors(item: JsonObject, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const min = amounts(item, 'min');
  const max = amounts(item, 'max');
  const def = amounts(item, 'default');
  const defReq = amounts(item, 'defaultRequest');
  const ratio = amounts(item, 'maxLimitRequestRatio');
  if (item.type === 'Pod') {
    if (def.size > 0)
      errs.push(
        fieldErrors.forbidden(p.child('default'), "may not be specified when `type` is 'Pod'"),
      );
    if (defReq.size > 0) {
      errs.push(
        fieldErrors.forbidden(
          p.child('defaultRequest'),
          "may not be specified when `type` is 'Pod'",
        ),
      );
    }
  }
  if (item.type === 'PersistentVolumeClaim' && !min.has('storage') && !max.has('storage')) {
    errs.push(
      fieldErrors.required(
        p.child('limits'),
        'either minimum or maximum storage value is required, but neither was provided',
      ),
    );
  }
  const names = new Set([
    ...min.keys(),
    ...max.keys(),
    ...def.keys(),
    ...defReq.keys(),
    ...ratio.keys(),
  ]);
  for (const name of [...names].sort()) {
    errs.push(...relationErrors(name, p, { min, max, def, defReq, ratio }));
  }
  return errs;
}

interface Lists {
  readonly min: Map<string, Quantity>;
  readonly max: Map<string, Quantity>;
  readonly def: Map<string, Quantity>;
  readonly defReq: Map<string, Quantity>;
  readonly ratio: Map<string, Quantity>;
}

function relationErrors(name: string, p: FieldPath, l: Lists): FieldError[] {
  const errs: FieldError[] = [];
  const [min, max, def, req, ratio] = [l.min, l.max, l.def, l.defReq, l.ratio].map((m) =>
    m.get(name),
  );
  const s = formatQuantity;
  const over = (a: Quantity | undefined, b: Quantity | undefined) =>
    a !== undefined && b !== undefined && compareQuantities(a, b) > 0;
  const at = (field: string, q: Quantity, msg: string) =>
    errs.push(fieldErrors.invalid(p.child(field).key(name), s(q), msg));
  if (over(min, max)) at('min', min!, `min value ${s(min!)} is greater than max value ${s(max!)}`);
  if (over(min, req))
    at(
      'defaultRequest',
      req!,
      `min value ${s(min!)} is greater than default request value ${s(req!)}`,
    );
  if (over(req, max))
    at(
      'defaultRequest',
      req!,
      `default request value ${s(req!)} is greater than max value ${s(max!)}`,
    );
  if (over(req, def)) {
    at(
      'defaultRequest',
      req!,
      `default request value ${s(req!)} is greater than default limit value ${s(def!)}`,
    );
  }
  if (over(min, def))
    at('default', min!, `min value ${s(min!)} is greater than default value ${s(def!)}`);
  if (over(def, max))
    at('default', max!, `default value ${s(def!)} is greater than max value ${s(max!)}`);
  if (ratio !== undefined && compareQuantities(ratio, ONE) < 0) {
    at('maxLimitRequestRatio', ratio, `ratio ${s(ratio)} is less than 1`);
  }
  if (ratio !== undefined && min !== undefined && max !== undefined && min.nanos > 0n) {
    // Upstream compares in milli units (as floats): max/min against the ratio.
    const limit = Number(max.nanos) / Number(min.nanos);
    if (Number(ratio.nanos) / 1e9 > limit) {
      at(
        'maxLimitRequestRatio',
        ratio,
        `ratio ${s(ratio)} is greater than max/min = ${limit.toFixed(6)}`,
      );
    }
  }
  return errs;
}
