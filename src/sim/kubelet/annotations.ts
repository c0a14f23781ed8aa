/**
 * Fault-injection and timing annotations the simulated kubelet reads from a pod. They are read
 * on every plan, so editing one on a live pod takes effect at the next plan (level-triggered).
 * An unparsable value is ignored (the default applies), as kwok ignores bad delay annotations.
 *
 * | Annotation                      | Value                                   | Default | Effect |
 * |---------------------------------|-----------------------------------------|---------|--------|
 * | `sim.fleetyard.dev/start-delay` | Go duration (`2s`, `1m30s`, `500ms`)    | `0s`    | Time from the kubelet accepting the pod (`status.startTime`) to the first container start; also how long each init container takes to start after the previous one finished. |
 * | `sim.fleetyard.dev/ready-delay` | Go duration                             | `0s`    | Time from a container's `running.startedAt` until it reports `ready: true`. |
 * | `sim.fleetyard.dev/ready`       | `"true"` / `"false"`                    | `true`  | `"false"` keeps every container unready (ContainersReady/Ready False) until removed or set to `"true"`. |
 * | `sim.fleetyard.dev/exit-code`   | integer, or `name=code,name=code`       | `0` when `restartPolicy` is Never or OnFailure (a Job's pods), else none | Regular containers exit with this code (0 → `Completed`, else `Error`); without it, those of an `Always` pod run until stopped. The per-name form targets any container by name (init containers and sidecars too); a bare integer applies to regular containers only. Init containers without an entry exit 0. |
 * | `sim.fleetyard.dev/exit-after`  | Go duration                             | `0s`    | How long an exiting container runs (from `startedAt`) before it terminates. |
 * | `sim.fleetyard.dev/shutdown-delay` | Go duration                          | the kubelet's (`0s` in `simulatedNodes`) | How long running containers take to exit (code 0) after SIGTERM when the pod is deleted; past the grace period they are killed (137). |
 *
 * What containers log and use (`log-lines`, `log-interval`, `cpu-usage`, `memory-usage`) is
 * read by `src/sim/kubelet-api/` and listed in docs/kubelet-endpoints.md.
 *
 * On a Node, `sim.fleetyard.dev/state: down` stops its simulated kubelet (no heartbeats, pods
 * frozen); `up` or no annotation runs it. See `docs/simulation.md`.
 *
 * Image pulls fail for images whose tag is `nonexistent` or `404` (`nginx:nonexistent`), and for
 * digest-pinned images whose repository's last segment is `nonexistent`
 * (`registry.example/nonexistent@sha256:…`, for workloads that accept digests only); the
 * pattern is `PlanContext.failingImage`.
 *
 * @module
 */

import type { KubeletPod } from './kubelet-pod.js';

export const ANNOTATION_PREFIX = 'sim.fleetyard.dev/';
export const START_DELAY_ANNOTATION = 'sim.fleetyard.dev/start-delay';
export const READY_DELAY_ANNOTATION = 'sim.fleetyard.dev/ready-delay';
export const READY_ANNOTATION = 'sim.fleetyard.dev/ready';
export const EXIT_CODE_ANNOTATION = 'sim.fleetyard.dev/exit-code';
export const EXIT_AFTER_ANNOTATION = 'sim.fleetyard.dev/exit-after';
export const SHUTDOWN_DELAY_ANNOTATION = 'sim.fleetyard.dev/shutdown-delay';
/** On a Node: `down` stops its simulated kubelet, `up` (or absent) runs it. */
export const NODE_STATE_ANNOTATION = 'sim.fleetyard.dev/state';

/** The default image-pull failure rule: tag `nonexistent` or `404`, or repository `…/nonexistent@sha256:…`. */
export const DEFAULT_FAILING_IMAGE = /(:(nonexistent|404)|\/nonexistent@sha256:[0-9a-f]{64})$/;

/** The parsed simulation settings of one pod. Durations in milliseconds. */
export interface SimSettings {
  startDelayMs: number;
  readyDelayMs: number;
  /** False while `sim.fleetyard.dev/ready: "false"`. */
  readyAllowed: boolean;
  /** Exit code for regular containers without a per-name entry. */
  exitCode?: number;
  /** Exit codes by container name. */
  exitCodeByName: ReadonlyMap<string, number>;
  exitAfterMs: number;
}

const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go `time.ParseDuration` string (`300ms`, `1.5h`, `2h45m`, `0`); returns milliseconds,
 * or `undefined` when invalid or negative (a negative delay means nothing here).
 */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const part = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let pos = 0;
  while (pos < text.length) {
    part.lastIndex = pos;
    const m = part.exec(text);
    if (!m?.[1] || !m[2]) return undefined;
    total += Number(m[1]) * (UNIT_MS[m[2]] ?? 0);
    pos = part.lastIndex;
  }
  return pos === 0 ? undefined : total;
}

/** Formats whole milliseconds like Go's `Duration.String()` for the back-off messages: `10s`, `1m20s`, `5m0s`. */
export function formatGoDuration(ms: number): string {
  const totalSeconds = ms / 1000;
  if (totalSeconds < 60) return `${totalSeconds}s`;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  return h > 0 ? `${h}h${m}m${s}s` : `${m}m${s}s`;
}

function parseExitCode(text: string): number | undefined {
  return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

/** Splits `"1"` or `"app=1,side=0"` into a default and per-name codes; bad entries are dropped. */
function parseExitCodes(
  text: string | undefined,
): Pick<SimSettings, 'exitCode' | 'exitCodeByName'> {
  const byName = new Map<string, number>();
  if (text === undefined) return { exitCodeByName: byName };
  if (!text.includes('=')) return { exitCode: parseExitCode(text), exitCodeByName: byName };
  for (const entry of text.split(',')) {
    const [name, code] = entry.split('=');
    const parsed = code === undefined ? undefined : parseExitCode(code);
    if (name?.trim() && parsed !== undefined) byName.set(name.trim(), parsed);
  }
  return { exitCodeByName: byName };
}

function durationOr0(text: string | undefined): number {
  return text === undefined ? 0 : (parseGoDuration(text.trim()) ?? 0);
}

/** Reads every simulation annotation of `pod`, applying the defaults in the table above. */
export function readSimSettings(pod: KubeletPod): SimSettings {
  const a = pod.metadata.annotations ?? {};
  return {
    startDelayMs: durationOr0(a[START_DELAY_ANNOTATION]),
    readyDelayMs: durationOr0(a[READY_DELAY_ANNOTATION]),
    readyAllowed: a[READY_ANNOTATION]?.trim() !== 'false',
    exitAfterMs: durationOr0(a[EXIT_AFTER_ANNOTATION]),
    ...parseExitCodes(a[EXIT_CODE_ANNOTATION]),
  };
}

/** The pod's `shutdown-delay` in ms, or undefined when absent or unparsable (the kubelet's default applies). */
export function readShutdownDelayMs(pod: KubeletPod): number | undefined {
  const text = pod.metadata.annotations?.[SHUTDOWN_DELAY_ANNOTATION];
  return text === undefined ? undefined : parseGoDuration(text.trim());
}
