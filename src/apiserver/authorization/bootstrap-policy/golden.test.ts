/**
 * The policy against upstream's golden files (`testdata/`, each with its origin in a header).
 * The index this was written from holds no release-1.33 revision of `controller-roles.yaml`,
 * only a later one: the differences between that revision and 1.33's defaults are listed in
 * {@link AFTER_1_33} and applied to the golden before comparing, so every other role is
 * checked field for field and in order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { PolicyRule } from '../../../api/model/index.js';
import { bootstrapClusterRoles } from './cluster-roles.js';
import { bootstrapControllerRoles } from './controller-roles.js';
import { bootstrapNamespaceRoleBindings, bootstrapNamespaceRoles } from './namespace-policy.js';

interface GoldenItem {
  metadata: { name: string; creationTimestamp?: null };
  rules?: PolicyRule[] | null;
  [key: string]: unknown;
}

/** The items of a golden List, without what a created object never carries. */
function golden(file: string): GoldenItem[] {
  const text = readFileSync(new URL(`./testdata/${file}`, import.meta.url), 'utf8');
  const list = parse(text) as { items: GoldenItem[] };
  return list.items.map((item) => {
    const { creationTimestamp: _, ...metadata } = item.metadata;
    const { rules, ...rest } = item;
    // `rules: null` is Go's nil slice: the aggregated roles start without rules.
    return { ...rest, metadata, ...(rules === null || rules === undefined ? {} : { rules }) };
  });
}

const jsonOf = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
const portworxServicesGet: PolicyRule = {
  apiGroups: [''],
  resources: ['services'],
  verbs: ['get'],
};

/** What the stored controller-roles.yaml revision has that 1.33 (default gates) has not. */
const AFTER_1_33 = {
  /** Gated off in 1.33: DynamicResourceAllocation (beta, off), DRADeviceTaints (alpha),
   * VolumeAttributesClass (beta, off). */
  roles: [
    'system:controller:device-taint-eviction-controller',
    'system:controller:resource-claim-controller',
    'system:controller:volumeattributesclass-protection-controller',
  ],
  /** Rules added after 1.33 (absent from 1.33's controller_policy.go). */
  addedRules: {
    'system:controller:pvc-protection-controller': {
      apiGroups: [''],
      resources: ['persistentvolumeclaims/status'],
      verbs: ['update'],
    },
  } as Record<string, PolicyRule>,
  /** Rules 1.33 still has (the in-tree portworx plugin's), removed after it. */
  removedRules: {
    'system:controller:expand-controller': portworxServicesGet,
    'system:controller:persistent-volume-binder': portworxServicesGet,
  } as Record<string, PolicyRule>,
};

function as133(items: GoldenItem[]): GoldenItem[] {
  return items
    .filter((i) => !AFTER_1_33.roles.includes(i.metadata.name))
    .map((i) => {
      const added = AFTER_1_33.addedRules[i.metadata.name];
      const removed = AFTER_1_33.removedRules[i.metadata.name];
      let rules = i.rules ?? [];
      if (added) rules = rules.filter((r) => JSON.stringify(r) !== JSON.stringify(added));
      if (removed) rules = [...rules, removed];
      return { ...i, rules };
    });
}

describe('bootstrap policy vs upstream golden files', () => {
  const cases: [string, () => unknown[], (items: GoldenItem[]) => GoldenItem[]][] = [
    ['cluster-roles.yaml', bootstrapClusterRoles, (x) => x],
    ['controller-roles.yaml', bootstrapControllerRoles, as133],
    ['namespace-roles.yaml', bootstrapNamespaceRoles, (x) => x],
    ['namespace-role-bindings.yaml', bootstrapNamespaceRoleBindings, (x) => x],
  ];
  for (const [file, ours, adjust] of cases) {
    it(file, () => {
      const want = adjust(golden(file));
      const got = jsonOf(ours()) as GoldenItem[];
      assert.deepEqual(
        got.map((o) => o.metadata.name),
        want.map((o) => o.metadata.name),
        'same objects, same order',
      );
      for (const [i, w] of want.entries()) assert.deepEqual(got[i], w, w.metadata.name);
    });
  }
});
