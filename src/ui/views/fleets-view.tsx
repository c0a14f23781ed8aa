/**
 * Fleets: one card per CelldFleet with its member table (`status.members[]`: pod, node,
 * zone, claim and phase, readiness, note, and the countdown to a replacement from
 * `replacementDue` minus cluster time now), its conditions, its Events and its reservation.
 *
 * @module
 */
import { countdownText } from '../data/clock.js';
import { FLEET_GROUP, FLEET_RESOURCE, type FleetCard, type MemberRow } from '../data/fleets.js';
import { objectHref } from '../data/relations.js';
import { clusterNow, fleets } from '../state.js';
import { ActionButton, Empty, Phase, Readiness, ScaleControl, TableWrap } from './common.js';
import { EventList } from './event-list.js';
import { PodActions } from './workloads-view.js';

const FLEET_REF = { group: FLEET_GROUP, resource: FLEET_RESOURCE } as const;
const RESERVATION_REF = { group: FLEET_GROUP, resource: 'celldstoragereservations' } as const;

function Member(props: { readonly fleet: FleetCard; readonly m: MemberRow; readonly now: number }) {
  const { m, fleet } = props;
  const ns = fleet.namespace;
  return (
    <tr
      data-testid="member-row"
      data-pod={m.pod}
      data-ready={m.ready ? 'true' : 'false'}
      class={m.ready ? undefined : 'row-warn'}
    >
      <td>
        <a href={objectHref({ group: '', resource: 'pods' }, ns, m.pod)}>{m.pod}</a>
      </td>
      <td>{m.node || '—'}</td>
      <td>{m.zone || '—'}</td>
      <td>
        {m.claim === '' ? (
          '—'
        ) : (
          <a href={objectHref({ group: '', resource: 'persistentvolumeclaims' }, ns, m.claim)}>
            {m.claim}
          </a>
        )}{' '}
        {m.claimPhase !== '' && <Phase phase={m.claimPhase} />}
      </td>
      <td>
        <Readiness ready={m.ready} />
      </td>
      <td class="note">
        {m.replacementDueMs !== undefined && (
          <span class="badge warn" data-testid="countdown">
            {countdownText(m.replacementDueMs, props.now)}
          </span>
        )}{' '}
        <span data-testid="member-note">{m.note}</span>
      </td>
      <td class="actions">
        <PodActions namespace={ns} name={m.pod} />
        {m.claim !== '' && m.claimPhase === 'Bound' && (
          <ActionButton
            target={`${ns}/${m.claim}`}
            req={{ action: 'lose-volume', namespace: ns, name: m.claim }}
            danger
          />
        )}
      </td>
    </tr>
  );
}

function Fleet(props: { readonly fleet: FleetCard; readonly now: number }) {
  const f = props.fleet;
  const tone = f.state === 'Ready' ? 'ok' : f.state === 'Blocked' ? 'bad' : 'warn';
  return (
    <article
      class="card fleet"
      data-testid="fleet"
      data-fleet={f.key}
      aria-label={`fleet ${f.key}`}
    >
      <header class="card-head">
        <h2>
          <a href={objectHref(FLEET_REF, f.namespace, f.name)}>{f.key}</a>
        </h2>
        <span class={`badge ${tone}`}>
          <span aria-hidden="true">{tone === 'ok' ? '✓ ' : tone === 'bad' ? '✕ ' : '… '}</span>
          {f.state}
        </span>
        <span class="muted">
          {f.readyReplicas}/{f.replicas} ready{f.paused ? ', maintenance paused' : ''}
        </span>
        <ScaleControl
          group={FLEET_GROUP}
          resource={FLEET_RESOURCE}
          namespace={f.namespace}
          name={f.name}
          replicas={f.replicas}
        />
        <ActionButton
          target={f.key}
          req={{ action: 'restart-fleet', namespace: f.namespace, name: f.name }}
        />
      </header>
      <p>
        Reservation:{' '}
        {f.reservation === '' ? (
          <span class="muted">none</span>
        ) : (
          <a href={objectHref(RESERVATION_REF, f.namespace, f.reservation)}>{f.reservation}</a>
        )}
      </p>
      <TableWrap label={`members of fleet ${f.key}`}>
        <table class="grid">
          <thead>
            <tr>
              <th scope="col">Pod</th>
              <th scope="col">Node</th>
              <th scope="col">Zone</th>
              <th scope="col">Claim</th>
              <th scope="col">Ready</th>
              <th scope="col">Note</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {f.members.map((m) => (
              <Member key={m.pod} fleet={f} m={m} now={props.now} />
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h3>Conditions</h3>
      <TableWrap label={`conditions of fleet ${f.key}`}>
        <table class="grid">
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Reason</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {f.conditions.map((c) => (
              <tr key={c.type} data-testid="condition" data-type={c.type} data-status={c.status}>
                <td>{c.type}</td>
                <td>{c.status}</td>
                <td>{c.reason}</td>
                <td class="wrap">{c.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <h3>Events</h3>
      <EventList events={f.events} testid="fleet-events" />
    </article>
  );
}

export function FleetsView() {
  const list = fleets.value;
  const now = clusterNow.value;
  return (
    <div>
      <h1 class="view-title">Fleets</h1>
      {list.length === 0 && <Empty>No CelldFleets.</Empty>}
      {list.map((f) => (
        <Fleet key={f.key} fleet={f} now={now} />
      ))}
    </div>
  );
}
