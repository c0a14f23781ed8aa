/**
 * The options of `ApiClient` calls: what every call takes (signal, time limit), what
 * writes add as query parameters (`fieldManager`, `dryRun=All`), patches (`force`, subresource),
 * DELETE's `DeleteOptions` body and a list's selectors and paging. Types only, kept apart from
 * the client so that code which only passes options does not read the transport.
 *
 * @module
 */
import type { ListOptions } from './lister-watcher.js';

/** Options every call takes. */
export interface CallOptions {
  readonly signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  readonly timeoutMs?: number;
}

/** Create/Update options (query parameters). */
export interface WriteOptions extends CallOptions {
  /** Overrides the client's `fieldManager`. */
  readonly fieldManager?: string;
  /** `dryRun=All`: validate and answer, persist nothing. */
  readonly dryRun?: boolean;
}

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

export interface PatchOptions extends WriteOptions {
  /** Apply only: take over fields other managers own instead of answering 409. */
  readonly force?: boolean;
  /** Patch a subresource, e.g. `status`. */
  readonly subresource?: string;
}

export type PropagationPolicy = 'Orphan' | 'Background' | 'Foreground';

/** `DeleteOptions`, sent as the JSON body. */
export interface DeleteOptions extends CallOptions {
  readonly propagationPolicy?: PropagationPolicy;
  readonly gracePeriodSeconds?: number;
  /** The delete fails with 409 unless the live object still has this uid / resourceVersion. */
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}

export interface ListCallOptions extends CallOptions, ListOptions {}
