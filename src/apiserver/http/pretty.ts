/**
 * When kube-apiserver indents its JSON (`isPrettyPrint` in apiserver's
 * handlers/negotiation): a `pretty` query parameter decides when it has a value, parsed by Go's
 * `strconv.ParseBool` (so `pretty=yes` is false, unlike the query-parameter conversion in
 * query-bool.ts that `watch` goes through); without one, curl, Wget and browsers get indented
 * bodies by their User-Agent.
 *
 * @module
 */
import type { IncomingMessage } from 'node:http';

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const PRETTY_AGENTS = ['curl', 'Wget', 'Mozilla/5.0'] as const;

/** Whether the request asks for indented JSON, as upstream decides it. */
export function wantsPretty(req: IncomingMessage | undefined): boolean {
  if (req === undefined) return false;
  const url = req.url ?? '';
  const q = url.indexOf('?');
  if (q >= 0 && url.includes('pretty', q)) {
    const value = new URLSearchParams(url.slice(q + 1)).get('pretty');
    if (value !== null && value !== '') return GO_TRUE.has(value);
  }
  const agent = req.headers['user-agent'] ?? '';
  return PRETTY_AGENTS.some((prefix) => agent.startsWith(prefix));
}
