/**
 * The bits of Go's `fmt` that RBAC's messages are made of, so they read byte for byte as
 * upstream's: `%q` of a string, `%q` of a `[]string` (`["get" "list"]`, space-separated), and
 * the text of an `errors.Aggregate` (`k8s.io/apimachinery/pkg/util/errors`: one message alone,
 * several as `[a, b]`, duplicates dropped).
 *
 * @module
 */
import { goQuote } from '../../../api/cel/go-syntax.js';

export { goQuote };

/** Go's `%q` of a `[]string`: `["a" "b"]`, `[]` when empty. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/**
 * Go's `utilerrors.NewAggregate(errs).Error()`: '' for none, the message for one, otherwise
 * the distinct messages in order as `[a, b]` (one distinct message among several prints bare).
 */
export function aggregateMessage(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0] ?? '';
  const distinct = [...new Set(messages)];
  if (distinct.length === 1) return distinct[0] ?? '';
  return `[${distinct.join(', ')}]`;
}
