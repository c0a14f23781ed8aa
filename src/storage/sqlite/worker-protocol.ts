/**
 * Messages between the main thread and the commit worker. One worker serves every SQLite store
 * of the process; requests name their store. Appends are answered in the order they were
 * sent; a compaction is answered when it finishes, which may be after later appends.
 *
 * @module
 */
import type { RowCell } from './log-store.js';

export type WorkerOp =
  | { readonly op: 'open'; readonly file: string; readonly reserveBytes: number }
  | { readonly op: 'append'; readonly cells: readonly RowCell[] }
  | { readonly op: 'reset' }
  | { readonly op: 'probe' }
  | { readonly op: 'compact'; readonly revision: number }
  | { readonly op: 'close' };

export type WorkerRequest = WorkerOp & { readonly id: number; readonly store: number };

export interface WorkerReply {
  readonly id: number;
  /** The answer of a `probe`. */
  readonly result?: boolean | undefined;
  /** Present when the request failed. */
  readonly error?: { readonly message: string; readonly code?: string | undefined };
}
