/**
 * Typed reads of RBAC objects as stored or as written (plain JSON): the rules of a role, the
 * role reference and subjects of a binding. Malformed parts read as empty, since what reaches
 * here was validated when written.
 *
 * @module
 */
import type { PolicyRule, RbacV1Subject, RoleRef } from '../../../api/model/index.js';

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function strings(v: unknown): string[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.filter((s): s is string => typeof s === 'string');
}

export function rulesOf(v: unknown): PolicyRule[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((r) => {
    const rule: PolicyRule = { verbs: strings(r.verbs) ?? [] };
    const apiGroups = strings(r.apiGroups);
    const resources = strings(r.resources);
    const resourceNames = strings(r.resourceNames);
    const nonResourceURLs = strings(r.nonResourceURLs);
    if (apiGroups !== undefined) rule.apiGroups = apiGroups;
    if (resources !== undefined) rule.resources = resources;
    if (resourceNames !== undefined) rule.resourceNames = resourceNames;
    if (nonResourceURLs !== undefined) rule.nonResourceURLs = nonResourceURLs;
    return rule;
  });
}

export function roleRefOf(v: unknown): RoleRef {
  const r = isRecord(v) ? v : {};
  const s = (k: string) => (typeof r[k] === 'string' ? r[k] : '');
  return { apiGroup: s('apiGroup'), kind: s('kind'), name: s('name') };
}

export function subjectsOf(v: unknown): RbacV1Subject[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((s) => {
    const subject: RbacV1Subject = {
      kind: typeof s.kind === 'string' ? s.kind : '',
      name: typeof s.name === 'string' ? s.name : '',
    };
    if (typeof s.apiGroup === 'string') subject.apiGroup = s.apiGroup;
    if (typeof s.namespace === 'string') subject.namespace = s.namespace;
    return subject;
  });
}
