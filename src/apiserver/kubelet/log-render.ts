/**
 * `GET pods/{name}/log`'s options and the kubelet's rendering of a container's lines
 * (`pkg/kubelet/kuberuntime/logs`): lines written before `since` are skipped, `tailLines`
 * keeps the last N, `timestamps` prefixes each line with its time in Go's RFC3339Nano
 * (trailing zeros of the fraction dropped), and `limitBytes` cuts the output after that many
 * bytes, mid-line if need be. Options are validated as upstream's `ValidatePodLogOptions`
 * (422 Invalid on `PodLogOptions`).
 *
 * @module
 */
import { badRequest, invalid } from '../../api/errors.js';
import { type FieldError, fieldErrors } from '../../api/field-error.js';
import { parseTime } from '../../api/time.js';
import { queryFlag } from '../http/query-bool.js';
import type { LogLine } from './types.js';

/** The request's `PodLogOptions`. */
export interface LogQuery {
  readonly container: string;
  readonly follow: boolean;
  readonly previous: boolean;
  readonly timestamps: boolean;
  readonly tailLines?: number;
  readonly sinceSeconds?: number;
  /** `sinceTime` as epoch ms. */
  readonly sinceTime?: number;
  readonly limitBytes?: number;
}

function intParam(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null || text === '') return undefined;
  if (!/^-?\d+$/.test(text)) {
    throw badRequest(
      `invalid value for ${name}: strconv.ParseInt: parsing "${text}": invalid syntax`,
    );
  }
  return Number(text);
}

/** Reads and validates the options; `pod` names the object in a 422. */
export function parseLogQuery(query: URLSearchParams, pod: string): LogQuery {
  const tailLines = intParam(query, 'tailLines');
  const sinceSeconds = intParam(query, 'sinceSeconds');
  const limitBytes = intParam(query, 'limitBytes');
  const sinceText = query.get('sinceTime');
  const sinceTime = sinceText === null || sinceText === '' ? undefined : parseTime(sinceText);
  if (sinceText !== null && sinceText !== '' && sinceTime === undefined) {
    throw badRequest(`invalid value for sinceTime: parsing time "${sinceText}" as RFC3339`);
  }
  const errors: FieldError[] = [];
  if (tailLines !== undefined && tailLines < 0) {
    errors.push(fieldErrors.invalid('tailLines', tailLines, 'must be greater than or equal to 0'));
  }
  if (limitBytes !== undefined && limitBytes < 1) {
    errors.push(fieldErrors.invalid('limitBytes', limitBytes, 'must be greater than 0'));
  }
  if (sinceSeconds !== undefined && sinceTime !== undefined) {
    errors.push(
      fieldErrors.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'),
    );
  } else if (sinceSeconds !== undefined && sinceSeconds < 1) {
    errors.push(fieldErrors.invalid('sinceSeconds', sinceSeconds, 'must be greater than 0'));
  }
  if (errors.length > 0) throw invalid({ group: '', kind: 'PodLogOptions' }, pod, errors);
  return {
    container: query.get('container') ?? '',
    follow: queryFlag(query, 'follow'),
    previous: queryFlag(query, 'previous'),
    timestamps: queryFlag(query, 'timestamps'),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime !== undefined ? { sinceTime } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
  };
}

/** The first time (epoch ms) a line may have to be shown, or undefined for all. */
export function sinceOf(q: LogQuery, now: number): number | undefined {
  if (q.sinceSeconds !== undefined) return now - q.sinceSeconds * 1000;
  return q.sinceTime;
}

/** Go's `time.RFC3339Nano` of epoch ms, in UTC: `2026-12-01T10:00:00.5Z`, `…:00Z`. */
export function rfc3339Nano(ms: number): string {
  const iso = new Date(ms).toISOString();
  const fraction = iso.slice(19, 23).replace(/\.?0+$/, '');
  return `${iso.slice(0, 19)}${fraction}Z`;
}

/** One line as the kubelet writes it, newline included. */
export function formatLine(line: LogLine, timestamps: boolean): string {
  return timestamps ? `${rfc3339Nano(line.at)} ${line.text}\n` : `${line.text}\n`;
}

/**
 * The lines written by `now` that the options show (before `tailLines`' cut when `tail` is
 * false, for a follow's later batches).
 */
export function visibleLines(
  lines: readonly LogLine[],
  options: {
    readonly now: number;
    readonly since?: number | undefined;
    readonly tailLines?: number;
  },
): LogLine[] {
  const shown = lines.filter(
    (l) => l.at <= options.now && (options.since === undefined || l.at >= options.since),
  );
  const tail = options.tailLines;
  return tail === undefined ? shown : shown.slice(Math.max(0, shown.length - tail));
}

/** Counts bytes against `limitBytes`; `take` returns what may still be written of a chunk. */
export class ByteBudget {
  #left: number;
  constructor(limit: number | undefined) {
    this.#left = limit ?? Number.POSITIVE_INFINITY;
  }
  get exhausted(): boolean {
    return this.#left <= 0;
  }
  take(text: string): Buffer {
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= this.#left) {
      this.#left -= bytes.length;
      return bytes;
    }
    const cut = bytes.subarray(0, Math.max(0, this.#left));
    this.#left = 0;
    return cut;
  }
}

/** A whole (non-follow) answer: the visible lines, formatted and cut at `limitBytes`. */
export function renderLog(lines: readonly LogLine[], q: LogQuery, now: number): Buffer {
  const shown = visibleLines(lines, { now, since: sinceOf(q, now), ...tailOf(q) });
  return new ByteBudget(q.limitBytes).take(shown.map((l) => formatLine(l, q.timestamps)).join(''));
}

function tailOf(q: LogQuery): { tailLines?: number } {
  return q.tailLines === undefined ? {} : { tailLines: q.tailLines };
}
