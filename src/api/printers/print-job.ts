/**
 * batch/v1 Job rows, as upstream `printJob` (kubectl 1.31+ shows STATUS): NAME, STATUS,
 * COMPLETIONS, DURATION, AGE; wide: CONTAINERS, IMAGES, SELECTOR.
 *
 * STATUS is the first of Complete, Failed, Terminating (deletionTimestamp set), Suspended,
 * FailureTarget, SuccessCriteriaMet whose condition is True, else Running. COMPLETIONS is
 * `succeeded/completions`, or for a work-queue Job (no completions) `succeeded/1`, with
 * ` of <parallelism>` when parallelism is above 1. DURATION is empty before the start, the time
 * since the start while running, and completion minus start once complete.
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, int, isDeleting, nameOf, obj, objs, str } from './access.js';
import { AGE, column, NAME } from './columns.js';
import { humanDuration, parseRfc3339 } from './duration.js';
import { containerCells, formatLabelSelector } from './format.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const WIDE = { priority: 1 };

/** Upstream's Job columns (`jobColumnDefinitions`). */
export const JOB_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Status', 'string', { text: 'Status of the job.' }),
  column('Completions', 'string', {
    text: 'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.',
  }),
  column('Duration', 'string', { text: 'Time required to complete the job.' }),
  AGE,
  column('Containers', 'string', { text: 'Names of each container in the template.' }, WIDE),
  column(
    'Images',
    'string',
    { text: 'Images referenced by each container in the template.' },
    WIDE,
  ),
  column(
    'Selector',
    'string',
    {
      text: 'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    },
    WIDE,
  ),
];

const STATUS_ORDER = ['Complete', 'Failed', 'Suspended', 'FailureTarget', 'SuccessCriteriaMet'];

function jobStatus(o: KubeObject): string {
  const trueConditions = new Set(
    objs(obj(o.status).conditions)
      .filter((c) => c.status === 'True')
      .map((c) => str(c.type)),
  );
  for (const type of STATUS_ORDER) {
    // Terminating outranks everything but the two terminal conditions.
    if (type === 'Suspended' && isDeleting(o)) return 'Terminating';
    if (trueConditions.has(type)) return type;
  }
  return isDeleting(o) ? 'Terminating' : 'Running';
}

function completions(o: KubeObject): string {
  const spec = obj(o.spec);
  const succeeded = int(obj(o.status).succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = int(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

function timeOf(v: unknown): number | undefined {
  return typeof v === 'string' ? parseRfc3339(v) : undefined;
}

function duration(o: KubeObject, now: Date): string {
  const status = obj(o.status);
  const start = timeOf(status.startTime);
  if (start === undefined) return '';
  const end = timeOf(status.completionTime);
  return humanDuration((end ?? now.getTime()) - start);
}

export function printJob(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const [names, images] = containerCells(obj(obj(spec.template).spec));
  return {
    cells: [
      nameOf(o),
      jobStatus(o),
      completions(o),
      duration(o, now),
      ageOf(o, now),
      names,
      images,
      formatLabelSelector(spec.selector),
    ],
  };
}
