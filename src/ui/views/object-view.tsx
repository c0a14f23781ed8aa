/**
 * One object: its YAML, its Events, its owners and dependents (links to their views), and
 * the actions that apply to its kind.
 *
 * @module
 */
import type { ComponentChildren } from 'preact';
import { useMemo } from 'preact/hooks';
import type { KubeObject } from '../data/json.js';
import { dependents, eventsFor, type Link, objectHref, owners } from '../data/relations.js';
import { toYaml } from '../data/yaml.js';
import { shown } from '../state.js';
import { ActionButton, Empty, ScaleControl } from './common.js';
import { EventList } from './event-list.js';
import { PodActions } from './workloads-view.js';

export interface ObjectRoute {
  readonly group: string;
  readonly resource: string;
  readonly namespace: string | undefined;
  readonly name: string;
}

const SCALABLE = new Set([
  'apps/deployments',
  'apps/replicasets',
  'apps/statefulsets',
  'celld.fleetyard.dev/celldfleets',
]);

function Links(props: {
  readonly links: readonly Link[];
  readonly testid: string;
  readonly none: string;
}) {
  return (
    <div data-testid={props.testid}>
      {props.links.length === 0 ? (
        <Empty>{props.none}</Empty>
      ) : (
        <ul class="links">
          {props.links.map((l) => (
            <li key={`${l.kind}/${l.namespace}/${l.name}`}>
              <span class="muted">{l.kind}</span>{' '}
              {l.ref === undefined ? (
                l.name
              ) : (
                <a href={objectHref(l.ref, l.namespace, l.name)}>
                  {l.namespace === '' ? l.name : `${l.namespace}/${l.name}`}
                </a>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Actions(props: { readonly r: ObjectRoute; readonly o: KubeObject }) {
  const { r, o } = props;
  const ns = o.metadata.namespace ?? '';
  const name = o.metadata.name;
  const key = `${r.group}/${r.resource}`;
  const items: ComponentChildren[] = [];
  if (key === '/nodes') {
    items.push(
      <ActionButton key="down" target={name} req={{ action: 'node-down', node: name }} danger />,
      <ActionButton key="up" target={name} req={{ action: 'node-up', node: name }} />,
      <ActionButton key="cordon" target={name} req={{ action: 'cordon', node: name }} />,
      <ActionButton key="uncordon" target={name} req={{ action: 'uncordon', node: name }} />,
      <ActionButton key="drain" target={name} req={{ action: 'drain', node: name }} />,
    );
  } else if (key === '/pods') {
    items.push(<PodActions key="pod" namespace={ns} name={name} />);
  } else if (key === '/persistentvolumeclaims') {
    items.push(
      <ActionButton
        key="lose"
        target={`${ns}/${name}`}
        req={{ action: 'lose-volume', namespace: ns, name }}
        danger
      />,
    );
  } else if (SCALABLE.has(key)) {
    const replicas = typeof o.spec?.replicas === 'number' ? o.spec.replicas : 1;
    items.push(
      <ScaleControl
        key="scale"
        group={r.group}
        resource={r.resource}
        namespace={ns}
        name={name}
        replicas={replicas}
      />,
    );
    if (r.resource === 'celldfleets') {
      items.push(
        <ActionButton
          key="restart"
          target={`${ns}/${name}`}
          req={{ action: 'restart-fleet', namespace: ns, name }}
        />,
      );
    }
  }
  if (items.length === 0) return null;
  return <div class="object-actions">{items}</div>;
}

export function ObjectView(props: { readonly r: ObjectRoute }) {
  const { r } = props;
  const view = shown.value;
  const store = view.store;
  const o = store.get(r.group, r.resource, r.namespace, r.name);
  const yaml = useMemo(() => (o === undefined ? '' : toYaml(o)), [o]);
  const title = `${r.resource}/${r.namespace === undefined ? '' : `${r.namespace}/`}${r.name}`;
  if (o === undefined) {
    return (
      <div>
        <h1 class="view-title">{title}</h1>
        <Empty>
          {view.live
            ? 'This object does not exist (any more).'
            : 'This object did not exist at that time.'}
        </Empty>
      </div>
    );
  }
  return (
    <div class="object">
      <h1 class="view-title">
        <span class="muted">{o.kind ?? r.resource}</span>{' '}
        {r.namespace === undefined ? r.name : `${r.namespace}/${r.name}`}
      </h1>
      <Actions r={r} o={o} />
      <div class="object-grid">
        <section aria-label="YAML">
          <h2>YAML</h2>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the YAML scrolls; keyboard users must reach it. */}
          <pre data-testid="object-yaml" tabIndex={0}>
            {yaml}
          </pre>
        </section>
        <div>
          <section aria-label="Owners">
            <h2>Owners</h2>
            <Links links={owners(store, o)} testid="object-owners" none="No owners." />
          </section>
          <section aria-label="Dependents">
            <h2>Dependents</h2>
            <Links links={dependents(store, o)} testid="object-dependents" none="No dependents." />
          </section>
          <section aria-label="Events">
            <h2>Events</h2>
            <EventList events={eventsFor(store, o)} testid="object-events" />
          </section>
        </div>
      </div>
    </div>
  );
}
