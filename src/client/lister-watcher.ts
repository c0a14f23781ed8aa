/**
 * The abstract list/watch source an informer runs on (client-go `tools/cache.ListerWatcher`):
 * one page of a list, and one watch stream that resolves when the server ends it. The HTTP
 * implementation is {@link HttpListerWatcher}; tests script a fake.
 *
 * Errors are typed so the reflector can decide between "rewatch", "relist" and "back off":
 * a failed request rejects with {@link StatusCodeError} (its HTTP code and the Status body, if
 * any), and an expired resourceVersion, whether answered as HTTP 410 or as the upstream-shaped
 * ERROR event with code 410 (docs/design/wire-protocol.md §4.4), rejects with {@link ExpiredError}.
 *
 * @module
 */
import { isJsonObject, type KubeObject } from '../api/object.js';

/** One page of a list request (`ListOptions`). */
export interface ListOptions {
  /** `""`/absent: a consistent read; `"0"`: any version; else at least as new as this. */
  readonly resourceVersion?: string;
  /** Page size; absent means everything in one page. */
  readonly limit?: number;
  /** The token of the previous page; sent without resourceVersion, as upstream requires. */
  readonly continue?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
}

/** One page of a list. */
export interface ListResult<T extends KubeObject = KubeObject> {
  readonly items: readonly T[];
  /** The list's `metadata.resourceVersion`: where a watch resumes after this list. */
  readonly resourceVersion: string;
  /** Present while more pages remain. */
  readonly continue?: string;
}

/** Options of one watch stream. */
export interface WatchOptions {
  /** Start after this revision (every later event is sent). */
  readonly resourceVersion: string;
  readonly allowWatchBookmarks: boolean;
  /** The server ends the stream cleanly after this many seconds. */
  readonly timeoutSeconds?: number;
  /** Called once the stream is open (its headers arrived), before its first event. */
  readonly onConnected?: () => void;
}

/** The watch event types an informer acts on; ERROR events become rejections instead. */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

export interface WatchEvent<T extends KubeObject = KubeObject> {
  readonly type: WatchEventType;
  /** The object; for BOOKMARK only `metadata.resourceVersion` is meaningful. */
  readonly object: T;
}

export interface ListerWatcher<T extends KubeObject = KubeObject> {
  /**
   * Fetches one page. Rejects with {@link StatusCodeError} / {@link ExpiredError}, or with the
   * signal's reason when it aborts first.
   */
  list(options: ListOptions, signal?: AbortSignal): Promise<ListResult<T>>;
  /**
   * Streams events to `onEvent` in order until the server ends the stream (resolves), the
   * signal aborts (resolves), or it fails (rejects; an ERROR event with code 410 or an HTTP 410
   * as {@link ExpiredError}). If `onEvent` throws, the stream is closed and that error rejects.
   */
  watch(
    options: WatchOptions,
    onEvent: (event: WatchEvent<T>) => void,
    signal: AbortSignal,
  ): Promise<void>;
}

/** The Kubernetes `Status` fields a client reads from an error body or ERROR event. */
export interface StatusBody {
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
  readonly [field: string]: unknown;
}

/** A request or stream that failed with an HTTP status (or a Status in an ERROR event). */
export class StatusCodeError extends Error {
  /** The HTTP status code (or the Status `code` of an ERROR event). */
  readonly code: number;
  /** The Status object the server sent, when it sent one. */
  readonly status: StatusBody | undefined;

  constructor(code: number, status?: StatusBody, message?: string) {
    super(message ?? status?.message ?? `the server responded with the status code ${code}`);
    this.name = 'StatusCodeError';
    this.code = code;
    this.status = status;
  }
}

/** 410 Gone / Expired: the resourceVersion (or continue token) is older than the history kept. */
export class ExpiredError extends StatusCodeError {
  constructor(status?: StatusBody, message?: string) {
    super(410, status, message);
    this.name = 'ExpiredError';
  }
}

/** Builds the right error class for a code and an optional Status body. */
export function statusCodeError(code: number, status?: StatusBody): StatusCodeError {
  return code === 410 ? new ExpiredError(status) : new StatusCodeError(code, status);
}

/**
 * `value` as a {@link StatusBody}: its fields as they are, except a `code`, `reason` or `message`
 * of another type than the Status field's, which is left out. Undefined for a non-object.
 */
export function statusBodyOf(value: unknown): StatusBody | undefined {
  if (!isJsonObject(value)) return undefined;
  const { code, reason, message, ...rest } = value;
  return {
    ...rest,
    ...(typeof code === 'number' ? { code } : {}),
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/** The error an ERROR watch event stands for (its object is a Status). */
export function watchEventError(object: unknown): StatusCodeError {
  const status = statusBodyOf(object) ?? {};
  return statusCodeError(status.code ?? 500, status);
}

/** True for 410 Expired / Gone in any of its shapes (upstream `isExpiredError`). */
export function isExpiredError(err: unknown): boolean {
  return err instanceof ExpiredError || (err instanceof StatusCodeError && err.code === 410);
}

/** A Status (or any JSON object) from an error response's text; undefined when it is not one. */
export function parseStatusBody(text: string): StatusBody | undefined {
  try {
    return statusBodyOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}
