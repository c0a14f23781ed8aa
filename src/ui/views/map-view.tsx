/**
 * The cluster map: zones → nodes → pod chips, disks in the zone (or node) they are pinned to.
 *
 * 5,000 pods must paint within a second and a rollout must not re-render every node per
 * frame: pod chips are bare fixed-size links (their glyph is CSS, not a text node) built as
 * one HTML string per node, and a node card re-renders only when the model gives it a new
 * box (the builder reuses unchanged ones).
 *
 * @module
 */
import { Component } from 'preact';
import { useLayoutEffect } from 'preact/hooks';
import { podChipsHtml } from '../data/chips-html.js';
import type { NodeBox, PodChip, PvChip, ZoneBox } from '../data/cluster-map.js';
import { objectHref } from '../data/relations.js';
import { clusterMap, shown, synced } from '../state.js';
import { ActionButton, Empty } from './common.js';

const NODE_REF = { group: '', resource: 'nodes' } as const;
const PV_REF = { group: '', resource: 'persistentvolumes' } as const;

/** A node's pod chips: one HTML string (chips-html.ts says why), re-parsed only when its pods change. */
function Pods(props: { readonly pods: readonly PodChip[] }) {
  // podChipsHtml escapes every value it puts in the string.
  return <div class="pods" dangerouslySetInnerHTML={{ __html: podChipsHtml(props.pods) }} />;
}

function Pv(props: { readonly pv: PvChip }) {
  const v = props.pv;
  const label = `disk ${v.name} ${v.capacity} ${v.phase}${v.claim === '' ? '' : ` for ${v.claim}`}`;
  return (
    <a
      class="pv"
      href={objectHref(PV_REF, undefined, v.name)}
      data-testid="pv"
      data-pv={v.name}
      data-phase={v.phase}
      data-claim={v.claim}
      title={label}
    >
      <span aria-hidden="true">⛁</span> {v.claim === '' ? v.name : v.claim}{' '}
      <span class="muted">{v.phase}</span>
    </a>
  );
}

const STATE_GLYPH = { Ready: '✓', NotReady: '!', Down: '✕', Cordoned: '⊘' } as const;

function NodeCardView(props: { readonly node: NodeBox }) {
  const n = props.node;
  const down = n.state === 'Down';
  return (
    <article
      class={`node st-${n.state}`}
      data-testid="node"
      data-node={n.name}
      data-state={n.state}
      aria-label={`node ${n.name}`}
    >
      <header class="node-head">
        <a class="node-name" href={objectHref(NODE_REF, undefined, n.name)}>
          {n.name}
        </a>
        <span class={`badge st-${n.state}`}>
          <span aria-hidden="true">{STATE_GLYPH[n.state]} </span>
          {n.state}
        </span>
        <span class="muted">{count(n.pods.length, 'pod')}</span>
      </header>
      <div class="node-actions">
        <ActionButton
          target={n.name}
          req={{ action: down ? 'node-up' : 'node-down', node: n.name }}
          danger={!down}
        />
        <ActionButton
          target={n.name}
          req={{ action: n.unschedulable ? 'uncordon' : 'cordon', node: n.name }}
        />
        <ActionButton target={n.name} req={{ action: 'drain', node: n.name }} />
      </div>
      <Pods pods={n.pods} />
      {n.pvs.length > 0 && (
        <div class="pvs">
          {n.pvs.map((v) => (
            <Pv key={v.name} pv={v} />
          ))}
        </div>
      )}
    </article>
  );
}

/** Re-renders only for a new node box (the model reuses unchanged ones). */
class NodeCard extends Component<{ readonly node: NodeBox }> {
  override shouldComponentUpdate(next: { readonly node: NodeBox }): boolean {
    return next.node !== this.props.node;
  }

  override render() {
    return <NodeCardView node={this.props.node} />;
  }
}

function Zone(props: { readonly zone: ZoneBox }) {
  const z = props.zone;
  const title = z.zone === '' ? 'No zone' : z.zone;
  const pods = z.nodes.reduce((sum, n) => sum + n.pods.length, 0);
  return (
    <section class="zone" data-testid="zone" data-zone={z.zone} aria-label={`zone ${title}`}>
      <header class="zone-head">
        <h2>{title}</h2>
        <span class="muted">
          {count(z.nodes.length, 'node')}, {count(pods, 'pod')}
        </span>
        {z.failing && (
          <span class="badge bad">
            <span aria-hidden="true">✕ </span>storage failing
          </span>
        )}
        {z.zone !== '' && (
          <ActionButton
            target={z.zone}
            req={{ action: z.failing ? 'restore-zone' : 'fail-zone', zone: z.zone }}
            danger={!z.failing}
          />
        )}
      </header>
      {z.pvs.length > 0 && (
        <div class="pvs zone-pvs">
          {z.pvs.map((v) => (
            <Pv key={v.name} pv={v} />
          ))}
        </div>
      )}
      <div class="nodes">
        {z.nodes.map((n) => (
          <NodeCard key={n.name} node={n} />
        ))}
      </div>
    </section>
  );
}

let painted = false;

export function MapView() {
  if (!painted && synced.value) performance.mark('fy:map-render');
  const model = clusterMap.value;
  const isSynced = synced.value;
  const live = shown.value.live;
  useLayoutEffect(() => {
    // The DOM contract's paint mark: the first time the map is in the DOM with synced data.
    if (isSynced && live && !painted) {
      painted = true;
      performance.mark('fy:map-painted');
    }
  }, [isSynced, live, model]);
  return (
    <div class="map">
      <h1 class="view-title">Cluster map</h1>
      {!isSynced && <Empty>Loading the cluster…</Empty>}
      {isSynced && model.zones.length === 0 && <Empty>No nodes.</Empty>}
      {model.zones.map((z) => (
        <Zone key={z.zone} zone={z} />
      ))}
      {model.unplaced.length > 0 && (
        <section class="zone" aria-label="pods not on a node">
          <header class="zone-head">
            <h2>Not on a node</h2>
            <span class="muted">{count(model.unplaced.length, 'pod')}</span>
          </header>
          <Pods pods={model.unplaced} />
        </section>
      )}
    </div>
  );
}

/** `1 pod`, `3 pods`. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
