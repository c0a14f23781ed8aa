/**
 * Follows one run of a container's log: writes its lines as the clock reaches them and as the
 * pod object changes (a storage watch on the pod's key), and ends when the run ends (it
 * terminated, restarted: another container ID, or the pod is gone), as the kubelet's follow
 * ends when the container exits. Used by `log?follow=true` and by `attach`, which shows what
 * the container writes from the moment it attached.
 *
 * @module
 */
import { asKind } from '../../api/model/index.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend } from '../../storage/backend.js';
import type { Clock } from '../../util/clock.js';
import { objectKey } from '../store/keys.js';
import { decodeObjectJson } from '../store/object-json.js';
import { visibleLines } from './log-render.js';
import type { ContainerLog, LogLine, PodLogSource } from './types.js';

export interface FollowOptions {
  readonly backend: Backend;
  readonly clock: Clock;
  readonly def: ResourceDefinition;
  readonly namespace: string;
  readonly name: string;
  readonly container: string;
  readonly source: PodLogSource;
  /** The run to follow, as read when the request came. */
  readonly log: ContainerLog;
  /** Lines before this time (epoch ms) are not shown. */
  readonly since?: number | undefined;
  /** The first batch (what was written already) keeps only its last N lines. */
  readonly tailLines?: number | undefined;
  /** Receives each line to show; returns false to stop (a byte limit reached). */
  readonly write: (line: LogLine) => boolean;
  /** Called once when the follow ends, for whatever reason (not after `stop`). */
  readonly ended: () => void;
}

/** Starts following; returns the function that stops it (idempotent, no `ended` call). */
export function followLog(o: FollowOptions): () => void {
  const key = objectKey(o.def, o.namespace, o.name);
  let log = o.log;
  /** Lines of this run already handled (shown, or cut by the first batch's tail and since). */
  let handled = 0;
  let cancelTimer: (() => void) | undefined;
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    watcher.stop();
    cancelTimer?.();
  };
  const finish = (): void => {
    if (stopped) return;
    stop();
    o.ended();
  };
  const pump = (first: boolean): void => {
    if (stopped) return;
    const now = o.clock.now();
    const due = log.lines.filter((l, i) => i >= handled && l.at <= now);
    handled += due.length;
    const tail = first && o.tailLines !== undefined ? { tailLines: o.tailLines } : {};
    for (const line of visibleLines(due, { now, since: o.since, ...tail })) {
      if (!o.write(line)) {
        finish();
        return;
      }
    }
    if (!log.running && handled >= log.lines.length) {
      finish();
      return;
    }
    cancelTimer?.();
    cancelTimer = undefined;
    const next = log.lines[handled];
    if (next !== undefined) {
      cancelTimer = o.clock.setTimer(Math.max(0, next.at - now), () => pump(false));
    }
  };
  const reread = (): void => {
    const kv = o.backend.get(key);
    if (kv === undefined) {
      finish();
      return;
    }
    const pod = asKind(decodeObjectJson(o.def, kv.value), 'Pod');
    const next = o.source.containerLog(pod, o.container, false);
    if (next === undefined || next.containerID !== log.containerID) {
      finish();
      return;
    }
    log = next;
    pump(false);
  };
  const watcher = o.backend.watch(key, o.backend.currentRevision(), (events) => {
    if (!stopped && events.some((e) => e.kv.key === key)) reread();
  });
  pump(true);
  return stop;
}
