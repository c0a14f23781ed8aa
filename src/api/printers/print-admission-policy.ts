/**
 * ValidatingAdmissionPolicies and their bindings as upstream `printers.go` prints them:
 * `NAME VALIDATIONS PARAMKIND AGE` and `NAME POLICYNAME PARAMREF AGE`, with `<unset>` for an
 * absent paramKind or paramRef, `*\/<name>` for a paramRef without a namespace, and a selector
 * paramRef in Go's generated `String()` form of a LabelSelector.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, arr, nameOf, obj, optObj, str, stringMap } from './access.js';
import { AGE, column, NAME } from './columns.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

export const VALIDATING_ADMISSION_POLICY_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Validations', 'integer', {
    text: 'Validations indicates the number of validation rules defined in this configuration',
  }),
  column('ParamKind', 'string', {
    text: 'ParamKind specifies the kind of resources used to parameterize this policy',
  }),
  AGE,
];

export const VALIDATING_ADMISSION_POLICY_BINDING_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('PolicyName', 'string', {
    text: 'PolicyName indicates the policy definition which the policy binding binded to',
  }),
  column('ParamRef', 'string', {
    text: 'ParamRef indicates the param resource which sets the configration param',
  }),
  AGE,
];

const UNSET = '<unset>';

export function printValidatingAdmissionPolicy(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const pk = optObj(spec.paramKind);
  const paramKind = pk ? `${str(pk.apiVersion)}/${str(pk.kind)}` : UNSET;
  return { cells: [nameOf(o), arr(spec.validations).length, paramKind, ageOf(o, now)] };
}

export function printValidatingAdmissionPolicyBinding(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const pr = optObj(spec.paramRef);
  let param = UNSET;
  if (pr) {
    const name = str(pr.name);
    const selector = optObj(pr.selector);
    if (name !== '') param = `${str(pr.namespace) || '*'}/${name}`;
    else if (selector) param = goSelectorString(selector);
  }
  return { cells: [nameOf(o), str(spec.policyName), param, ageOf(o, now)] };
}

/** Go's generated `(*LabelSelector).String()`: labels sorted by key, `%v` of the values. */
export function goSelectorString(sel: Record<string, unknown>): string {
  const labels = stringMap(sel.matchLabels);
  const keys = Object.keys(labels).sort();
  const labelText = keys.map((k) => `${k}: ${labels[k]},`).join('');
  const exprText = arr(sel.matchExpressions)
    .map((e) => {
      const r = obj(e);
      const values = arr(r.values).map(String).join(' ');
      return `LabelSelectorRequirement{Key:${str(r.key)},Operator:${str(r.operator)},Values:[${values}],},`;
    })
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${labelText}},MatchExpressions:[]LabelSelectorRequirement{${exprText}},}`;
}
