/**
 * Workloads: one card per Deployment, StatefulSet, DaemonSet, ReplicaSet and Job with its
 * counts and a scale control; a StatefulSet card lists its members in ordinal order with the
 * revision each runs, the partition and the rollout's progress.
 *
 * @module
 */
import { computed, useSignal } from '@preact/signals';
import { objectHref } from '../data/relations.js';
import {
  podsByController,
  statefulSetRollout,
  WORKLOAD_RESOURCES,
  type WorkloadRow,
} from '../data/workloads.js';
import { shown, workloads } from '../state.js';
import { ActionButton, Empty, Phase, Readiness, ScaleControl, TableWrap } from './common.js';

const byController = computed(() => podsByController(shown.value.store));

function Members(props: { readonly row: WorkloadRow }) {
  const set = props.row.object;
  const pods =
    set.metadata.uid === undefined ? [] : (byController.value.get(set.metadata.uid) ?? []);
  const r = statefulSetRollout(set, pods);
  return (
    <>
      <p class="rollout">
        {r.updatedReplicas}/{r.replicas} updated, {r.readyReplicas} ready
        {r.partition > 0 ? `, partition ${r.partition}` : ''}
        {r.rolling ? (
          <span class="badge warn">
            <span aria-hidden="true">↻ </span>rolling out {r.currentRevision} → {r.updateRevision}
          </span>
        ) : (
          <span class="muted"> revision {r.updateRevision || '—'}</span>
        )}
      </p>
      <progress
        max={Math.max(1, r.replicas)}
        value={Math.min(r.updatedReplicas, r.replicas)}
        aria-label={`rollout of ${props.row.key}`}
      />
      <TableWrap label={`members of ${props.row.key}`}>
        <table class="grid">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Pod</th>
              <th scope="col">Revision</th>
              <th scope="col">Phase</th>
              <th scope="col">Ready</th>
              <th scope="col">Node</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {r.members.map((m) => {
              const [ns = '', name = ''] = m.pod.split('/');
              return (
                <tr
                  key={m.ordinal}
                  data-testid="ordinal"
                  data-pod={m.pod}
                  data-revision={m.revision}
                >
                  <td>{m.ordinal}</td>
                  <td>
                    {m.chip === undefined ? (
                      <span class="muted">{name} (none)</span>
                    ) : (
                      <a href={objectHref({ group: '', resource: 'pods' }, ns, name)}>{name}</a>
                    )}
                  </td>
                  <td>
                    {m.revision || '—'}{' '}
                    {m.revision !== '' && (
                      <span class={m.updated ? 'badge ok' : 'badge warn'}>
                        {m.updated ? 'updated' : m.belowPartition ? 'held by partition' : 'old'}
                      </span>
                    )}
                  </td>
                  <td>{m.chip === undefined ? '—' : <Phase phase={m.chip.phase} />}</td>
                  <td>{m.chip === undefined ? '—' : <Readiness ready={m.chip.ready} />}</td>
                  <td>{m.node || '—'}</td>
                  <td class="actions">
                    {m.chip !== undefined && <PodActions namespace={ns} name={name} />}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
    </>
  );
}

export function PodActions(props: { readonly namespace: string; readonly name: string }) {
  const target = `${props.namespace}/${props.name}`;
  const pod = { namespace: props.namespace, name: props.name };
  return (
    <>
      <ActionButton target={target} req={{ action: 'crash', ...pod }} danger />
      <ActionButton target={target} req={{ action: 'break-readiness', ...pod }} />
      <ActionButton target={target} req={{ action: 'restore-readiness', ...pod }} />
    </>
  );
}

function Workload(props: { readonly row: WorkloadRow }) {
  const w = props.row;
  return (
    <article
      class="card"
      data-testid="workload"
      data-kind={w.kind}
      data-name={w.key}
      aria-label={`${w.kind} ${w.key}`}
    >
      <header class="card-head">
        <h3>
          <a href={objectHref(w, w.namespace, w.name)}>{w.key}</a>
        </h3>
        <span class="muted">{w.kind}</span>
        <span class={w.ready >= w.desired ? 'badge ok' : 'badge warn'}>
          <span aria-hidden="true">{w.ready >= w.desired ? '✓ ' : '… '}</span>
          {w.ready}/{w.desired} {w.kind === 'Job' ? 'succeeded' : 'ready'}
        </span>
        {w.kind !== 'Job' && (
          <span class="muted">
            {w.updated} {w.kind === 'ReplicaSet' ? 'available' : 'updated'}
          </span>
        )}
        {w.scalable && (
          <ScaleControl
            group={w.group}
            resource={w.resource}
            namespace={w.namespace}
            name={w.name}
            replicas={w.desired}
          />
        )}
      </header>
      {w.kind === 'StatefulSet' && <Members row={w} />}
    </article>
  );
}

export function WorkloadsView() {
  const rows = workloads.value;
  const ns = useSignal('');
  const namespaces = [...new Set(rows.map((r) => r.namespace))].sort();
  const visible = ns.value === '' ? rows : rows.filter((r) => r.namespace === ns.value);
  return (
    <div>
      <h1 class="view-title">Workloads</h1>
      <div class="filters">
        <label>
          Namespace{' '}
          <select value={ns.value} onChange={(e) => (ns.value = e.currentTarget.value)}>
            <option value="">all</option>
            {namespaces.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
      </div>
      {visible.length === 0 && <Empty>No workloads.</Empty>}
      {WORKLOAD_RESOURCES.map(({ kind }) => {
        const ofKind = visible.filter((r) => r.kind === kind);
        if (ofKind.length === 0) return null;
        return (
          <section key={kind} aria-label={`${kind}s`}>
            <h2>{kind}s</h2>
            {ofKind.map((r) => (
              <Workload key={r.key} row={r} />
            ))}
          </section>
        );
      })}
    </div>
  );
}
