/**
 * Shared pieces of the kubectl compatibility matrix (`kubectl-matrix-*.test.ts`): the four
 * versions, one debug-logging cluster per file with its request audit, one namespace per
 * version, manifests applied through stdin with DEFAULT flags (so `--validate=strict` and its
 * OpenAPI probe run), a parser for kubectl's tables, and the objects the flows need (a
 * multi-container Deployment, a realistic Widget CRD, an Event, a PVC, an `EDITOR` script).
 *
 * @module
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { API_ONLY, type Cluster, type StartOptions } from './cluster.js';
import type { KubectlResult } from './kubectl.js';
import {
  clusterForFile,
  getJson,
  type KubeObject,
  manifest,
  type VersionSuite,
} from './kubectl-fixtures.js';
import { type ExpectedStatus, REQUEST_LOG_ARGS, RequestAudit } from './request-log.js';

/**
 * The matrix: 1.27 (OpenAPI v2 protobuf validation probe, aggregated discovery v2beta1), 1.29
 * (OpenAPI v3 probe), 1.31 (discovery v2), 1.33 (the newest).
 */
export const MATRIX_VERSIONS = ['1.27', '1.29', '1.31', '1.33'] as const;

/**
 * One `fleetyard up --log-level debug` for the file plus its request audit. The audit's sweep
 * is registered before the cluster's `after`, so it runs while the server still answers.
 */
export function matrixCluster(options: StartOptions = {}): {
  current: () => Cluster;
  audit: RequestAudit;
} {
  let current: (() => Cluster) | undefined;
  const audit = new RequestAudit(() => {
    if (!current) throw new Error('matrixCluster: no cluster yet');
    return current();
  });
  // The sweep needs the running server, but its failure must not skip the cluster's own
  // `after` (node:test stops at the first failing after hook, leaving the server running):
  // the failure is kept and reported by a hook that runs after the cluster has stopped.
  let sweepFailure: unknown;
  after(async () => {
    try {
      await audit.sweep();
    } catch (e) {
      sweepFailure = e;
    }
  });
  current = clusterForFile({
    ...options,
    args: [...API_ONLY, ...REQUEST_LOG_ARGS, ...(options.args ?? [])],
  });
  after(() => {
    if (sweepFailure !== undefined) throw sweepFailure;
  });
  return { current, audit };
}

/** What a version's tests use: its namespace and kubectl bound to it. */
export interface MatrixNamespace {
  readonly ns: string;
  /** Runs in the namespace; fails the test unless kubectl exits 0; resolves with stdout. */
  kc(...args: string[]): Promise<string>;
  /** Runs in the namespace; resolves with the code and both outputs. */
  run(...args: string[]): Promise<KubectlResult>;
  /** Runs in the namespace with `input` on stdin (`-f -` manifests). */
  pipe(input: string, ...args: string[]): Promise<KubectlResult>;
  /** `get KIND NAME -o json`, parsed. */
  read<T = KubeObject>(kind: string, name: string): Promise<T>;
}

/**
 * Creates namespace `<prefix>-<slug>` in a `before` hook (`kubectl create namespace`, no
 * manifest validation involved) and opens the audit window around every test.
 */
export function matrixNamespace(
  s: VersionSuite,
  audit: RequestAudit,
  prefix: string,
): MatrixNamespace {
  const ns = `${prefix}-${s.slug}`;
  before(async () => {
    await s.k().ok(['create', 'namespace', ns]);
  });
  audit.perTest();
  return {
    ns,
    kc: (...args) => s.k().ok(['-n', ns, ...args]),
    run: (...args) => s.k().run(['-n', ns, ...args]),
    pipe: (input, ...args) => s.k().run(['-n', ns, ...args], { input }),
    read: <T = KubeObject>(kind: string, name: string) => getJson<T>(s.k(), ['-n', ns, kind, name]),
  };
}

/** A kubectl run that must exit 0 with an empty stderr; resolves with stdout. */
export function clean(r: KubectlResult, what: string): string {
  if (r.code !== 0 || r.stderr !== '') {
    throw new Error(`${what}: exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  }
  return r.stdout;
}

/** `kubectl apply -f -` (client-side, default flags) of the objects; must exit 0 cleanly. */
export async function applyObjects(
  n: MatrixNamespace,
  objects: readonly KubeObject[],
  ...flags: string[]
): Promise<string> {
  return clean(await n.pipe(manifest(...objects), 'apply', '-f', '-', ...flags), 'kubectl apply');
}

/** A parsed kubectl table: cells split on the 2+ spaces the tab writer puts between columns. */
export interface ParsedTable {
  readonly header: string[];
  readonly rows: string[][];
}

export function parseTable(text: string): ParsedTable {
  const [head, ...rest] = text.split('\n').filter((l) => l.trim() !== '');
  const split = (l: string): string[] => l.trim().split(/ {2,}/);
  return { header: head ? split(head) : [], rows: rest.map(split) };
}

/** The row whose first cell is `name`. */
export function rowNamed(table: ParsedTable, name: string, column = 0): string[] | undefined {
  return table.rows.find((r) => r[column] === name);
}

/** A server-rendered age cell: `0s`, `5s`, `2m3s`, `3h`, `2d5h`. */
export const AGE = /^(\d+[smhdy])+$/;

/** The REST path of a namespaced object (core group when `group` is empty). */
export function objectPath(
  ns: string,
  plural: string,
  name?: string,
  group = '',
  version = 'v1',
): string {
  const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
  return `${base}/namespaces/${ns}/${plural}${name === undefined ? '' : `/${name}`}`;
}

/** Client-side apply reads the object first; the 404 tells it to create. */
export function applyCreates(path: string): ExpectedStatus {
  return { method: 'GET', path, code: 404, why: 'apply reads before it creates', required: true };
}

/** `delete --wait` and `wait --for=delete` read the object until it is gone. */
export function waitsForGone(path: string): ExpectedStatus {
  return { method: 'GET', path, code: 404, why: 'delete/wait poll until the object is gone' };
}

/** A test's own read of something it expects to be missing. */
export function readsMissing(
  path: string | RegExp,
  why = 'the test checks it is gone',
): ExpectedStatus {
  return { method: 'GET', path, code: 404, why, required: true };
}

export interface ContainerSpec {
  readonly name: string;
  readonly image: string;
  readonly env?: Array<{ name: string; value: string }>;
  readonly ports?: Array<{ containerPort: number; name?: string }>;
}

/** A Deployment with explicit containers (and optionally a strategy): the SMP subject. */
export function deploymentWith(
  name: string,
  containers: readonly ContainerSpec[],
  extra: { replicas?: number; strategy?: Record<string, unknown> } = {},
): KubeObject {
  const app = { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: app },
    spec: {
      replicas: extra.replicas ?? 1,
      ...(extra.strategy ? { strategy: extra.strategy } : {}),
      selector: { matchLabels: app },
      template: { metadata: { labels: app }, spec: { containers } },
    },
  };
}

/** A PersistentVolumeClaim (its status.phase is written through /status by the tests). */
export function pvc(name: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
  };
}

/** A core/v1 Event about `target` (kind, name, uid), as a kubelet would write it. */
export function eventAbout(
  name: string,
  target: { kind: string; name: string; namespace: string; uid: string; apiVersion?: string },
  reason: string,
  message: string,
  type: 'Normal' | 'Warning' = 'Normal',
): Record<string, unknown> {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name, namespace: target.namespace },
    involvedObject: {
      apiVersion: target.apiVersion ?? 'v1',
      kind: target.kind,
      name: target.name,
      namespace: target.namespace,
      uid: target.uid,
    },
    reason,
    message,
    type,
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
    source: { component: 'kubelet' },
    reportingComponent: 'kubelet',
  };
}

/**
 * An executable `EDITOR`: a shell script running `sed -i <expression>` on the file kubectl
 * hands it (the YAML of the object being edited).
 */
export function sedEditor(expression: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kubectl-editor-'));
  const path = join(dir, 'edit.sh');
  const quoted = `'${expression.replaceAll("'", `'\\''`)}'`;
  writeFileSync(path, `#!/bin/sh\nexec sed -i ${quoted} "$1"\n`);
  chmodSync(path, 0o755);
  return path;
}

/**
 * Runs `fn` with `KUBE_EDITOR` set (kubectl prefers it to `EDITOR`). The kubectl helpers pass
 * the test process's environment on, and the tests of a file run one at a time.
 */
export async function withEditor<T>(editor: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.KUBE_EDITOR;
  process.env.KUBE_EDITOR = editor;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.KUBE_EDITOR;
    else process.env.KUBE_EDITOR = saved;
  }
}

export const WIDGET_GROUP = 'example.com';
export const WIDGET_CRD = `widgets.${WIDGET_GROUP}`;

/**
 * A realistic CRD: required fields, an enum, defaults, CEL rules (one a transition rule with
 * `oldSelf`), status and scale subresources, printer columns with a priority-1 column, a short
 * name and a category.
 */
export function widgetCrd(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: WIDGET_CRD },
    spec: {
      group: WIDGET_GROUP,
      scope: 'Namespaced',
      names: {
        plural: 'widgets',
        singular: 'widget',
        kind: 'Widget',
        listKind: 'WidgetList',
        shortNames: ['wd'],
        categories: ['fleet'],
      },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: widgetSchema() },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Size', type: 'string', jsonPath: '.spec.size' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Color', type: 'string', jsonPath: '.spec.color', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}

function widgetSchema(): Record<string, unknown> {
  return {
    type: 'object',
    description: 'A Widget is a unit the fleet builds.',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: {
        type: 'object',
        description: 'The desired shape of the widget.',
        required: ['size'],
        properties: {
          size: {
            type: 'string',
            description: 'How big the widget is.',
            enum: ['small', 'medium', 'large'],
          },
          color: { type: 'string', description: 'Paint colour.', default: 'blue' },
          replicas: { type: 'integer', minimum: 0, default: 1 },
          maxReplicas: { type: 'integer', minimum: 1, default: 10 },
          owner: {
            type: 'string',
            description: 'Who ordered it; fixed once set.',
            'x-kubernetes-validations': [
              { rule: 'self == oldSelf', message: 'owner is immutable' },
            ],
          },
        },
        'x-kubernetes-validations': [
          {
            rule: 'self.replicas <= self.maxReplicas',
            message: 'replicas must not exceed maxReplicas',
          },
        ],
      },
      status: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          phase: { type: 'string' },
          selector: { type: 'string' },
        },
      },
    },
  };
}

/** A Widget custom resource. */
export function widget(name: string, spec: Record<string, unknown>): KubeObject {
  return { apiVersion: `${WIDGET_GROUP}/v1`, kind: 'Widget', metadata: { name }, spec };
}

/** A manifest stream of plain records (CRDs and Events are not `KubeObject`s). */
export function manifestOf(...objects: readonly Record<string, unknown>[]): string {
  return manifest(...(objects as unknown as KubeObject[]));
}
