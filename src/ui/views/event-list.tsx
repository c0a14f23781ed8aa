/**
 * A list of Events (newest first), for a fleet card and the object view.
 *
 * @module
 */
import type { EventRow } from '../data/relations.js';
import { Empty } from './common.js';

export function EventList(props: {
  readonly events: readonly EventRow[];
  readonly testid: string;
  readonly limit?: number;
}) {
  const limit = props.limit ?? 50;
  return (
    <div data-testid={props.testid}>
      {props.events.length === 0 ? (
        <Empty>No events.</Empty>
      ) : (
        <ul class="events">
          {props.events.slice(0, limit).map((e) => (
            <li key={e.key} class={e.type === 'Warning' ? 'ev-warn' : undefined}>
              <span class={e.type === 'Warning' ? 'badge warn' : 'badge'}>
                <span aria-hidden="true">{e.type === 'Warning' ? '! ' : 'i '}</span>
                {e.type}
              </span>{' '}
              <strong>{e.reason}</strong> {e.message}{' '}
              <span class="muted">
                {e.time.replace('T', ' ').replace('Z', '')}
                {e.count > 1 ? ` (×${e.count})` : ''}
                {e.source === '' ? '' : ` · ${e.source}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
