/**
 * The `meta.k8s.io/v1` Table shape (upstream `metav1.Table`) and what a kind's printer
 * contributes to it: its column definitions and one row per object.
 *
 * @module
 */
import type { KubeObject } from '../object.js';

/** Upstream `TableColumnDefinition`; every field is always serialized. */
export interface TableColumnDefinition {
  readonly name: string;
  /** OpenAPI type: `string`, `integer`, `number`, `boolean`, `date`. */
  readonly type: string;
  /** e.g. `name` for the Name column, else empty. */
  readonly format: string;
  readonly description: string;
  /** 0: shown by default; ≥ 1: only with `-o wide`. */
  readonly priority: number;
}

export interface TableRowCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface TableRow {
  readonly cells: unknown[];
  readonly conditions?: readonly TableRowCondition[];
  /** PartialObjectMetadata, the full object, or `null` for `includeObject=None`. */
  readonly object: unknown;
}

export interface TableMetadata {
  readonly resourceVersion?: string;
  readonly continue?: string;
  readonly remainingItemCount?: number;
}

export interface Table {
  readonly kind: 'Table';
  readonly apiVersion: 'meta.k8s.io/v1';
  readonly metadata: TableMetadata;
  /** `null` when headers are left out (upstream `TableOptions.NoHeaders`). */
  readonly columnDefinitions: readonly TableColumnDefinition[] | null;
  readonly rows: TableRow[];
}

/** The `includeObject` query parameter. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The cells (and row conditions) a printer makes of one object. */
export interface PrintedRow {
  readonly cells: unknown[];
  readonly conditions?: readonly TableRowCondition[];
}

/** A kind's server-side printer: all its columns (wide ones included) and its rows. */
export interface KindPrinter {
  readonly columns: readonly TableColumnDefinition[];
  /** Must not throw on any JSON object, however incomplete. */
  row(obj: KubeObject, now: Date): PrintedRow;
}
