/**
 * Small shared pieces: action buttons (the DOM contract's `data-action`/`data-target`),
 * the scale control, phase/readiness badges (text and a glyph, never colour alone), links to
 * object views and scrollable table containers.
 *
 * @module
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ActionName, ActionRequest } from '../data/actions.js';
import { objectHref } from '../data/relations.js';
import type { ResourceRef } from '../data/store.js';
import { runAction } from '../state.js';

const LABELS: Readonly<Record<ActionName, string>> = {
  'node-down': 'Down',
  'node-up': 'Up',
  cordon: 'Cordon',
  uncordon: 'Uncordon',
  drain: 'Drain',
  'lose-volume': 'Lose volume',
  'fail-zone': 'Fail storage',
  'restore-zone': 'Restore storage',
  crash: 'Crash',
  'break-readiness': 'Break readiness',
  'restore-readiness': 'Restore readiness',
  scale: 'Scale',
  'restart-fleet': 'Restart',
};

export function ActionButton(props: {
  readonly req: ActionRequest;
  readonly target: string;
  readonly danger?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const label = LABELS[props.req.action];
  return (
    <button
      type="button"
      class={props.danger === true ? 'act danger' : 'act'}
      data-action={props.req.action}
      data-target={props.target}
      aria-label={`${label} ${props.target}`}
      aria-busy={busy}
      onClick={() => {
        setBusy(true);
        void runAction(props.req).finally(() => setBusy(false));
      }}
    >
      {label}
    </button>
  );
}

export function ScaleControl(props: {
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  readonly replicas: number;
}) {
  const [value, setValue] = useState<string | undefined>(undefined);
  const target = `${props.namespace}/${props.name}`;
  const shownValue = value ?? String(props.replicas);
  const replicas = Number(shownValue);
  return (
    <span class="scale">
      <input
        type="number"
        min={0}
        data-testid="scale-replicas"
        aria-label={`Replicas for ${target}`}
        value={shownValue}
        onInput={(e) => setValue(e.currentTarget.value)}
      />
      <ActionButton
        target={target}
        req={{
          action: 'scale',
          group: props.group,
          resource: props.resource,
          namespace: props.namespace,
          name: props.name,
          replicas: Number.isInteger(replicas) && replicas >= 0 ? replicas : props.replicas,
        }}
      />
    </span>
  );
}

const PHASE_GLYPH: Readonly<Record<string, string>> = {
  Running: '●',
  Bound: '●',
  Available: '○',
  Ready: '✓',
  Pending: '…',
  Succeeded: '✓',
  Released: '○',
  Failed: '✕',
  Lost: '✕',
  Down: '✕',
  NotReady: '!',
  Cordoned: '⊘',
};

/** A phase as coloured text with a glyph; `tone` picks the colour class. */
export function Phase(props: { readonly phase: string }) {
  return (
    <span class={`badge ph-${props.phase}`}>
      <span aria-hidden="true">{PHASE_GLYPH[props.phase] ?? '•'} </span>
      {props.phase}
    </span>
  );
}

export function Readiness(props: { readonly ready: boolean }) {
  return (
    <span class={props.ready ? 'badge ok' : 'badge warn'}>
      <span aria-hidden="true">{props.ready ? '✓ ' : '! '}</span>
      {props.ready ? 'ready' : 'not ready'}
    </span>
  );
}

export function ObjectLink(props: {
  readonly refTo: ResourceRef | undefined;
  readonly namespace: string | undefined;
  readonly name: string;
  readonly children?: ComponentChildren;
}) {
  const text = props.children ?? props.name;
  if (props.refTo === undefined) return <span>{text}</span>;
  return <a href={objectHref(props.refTo, props.namespace, props.name)}>{text}</a>;
}

/** A table in its own horizontally scrolling, keyboard-reachable container. */
export function TableWrap(props: { readonly label: string; readonly children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable).
    <section class="table-wrap" aria-label={props.label} tabIndex={0}>
      {props.children}
    </section>
  );
}

export function Empty(props: { readonly children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}
