/**
 * The batch/v1 CronJob table, as upstream `printCronJob` (v1.27+, with the Timezone column):
 * NAME, SCHEDULE, TIMEZONE (`<none>` when unset), SUSPEND (`True`/`False`, `<unset>` when
 * absent), ACTIVE (an integer), LAST SCHEDULE (`<none>` before the first run), AGE; wide adds
 * the job template's CONTAINERS, IMAGES and SELECTOR (`<none>`: a template has no selector).
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, arr, nameOf, obj, str } from './access.js';
import { AGE, column, NAME } from './columns.js';
import { translateTimestampSince } from './duration.js';
import { containerCells, formatLabelSelector } from './format.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const WIDE = { priority: 1 };

/** Upstream's column definitions; the descriptions are the batch API's field documentation. */
export const CRON_JOB_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Schedule', 'string', {
    text: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
  }),
  column('Timezone', 'string', {
    text: 'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones',
  }),
  column('Suspend', 'boolean', {
    text: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
  }),
  column('Active', 'integer', { text: 'A list of pointers to currently running jobs.' }),
  column('Last Schedule', 'string', {
    text: 'Information when was the last time the job was successfully scheduled.',
  }),
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

/** Upstream `printBoolPtr`. */
function boolPtr(v: unknown): string {
  if (typeof v !== 'boolean') return '<unset>';
  return v ? 'True' : 'False';
}

export function printCronJob(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const jobSpec = obj(obj(spec.jobTemplate).spec);
  const [names, images] = containerCells(obj(obj(jobSpec.template).spec));
  const last =
    status.lastScheduleTime === undefined || status.lastScheduleTime === null
      ? '<none>'
      : translateTimestampSince(status.lastScheduleTime, now);
  const timeZone = typeof spec.timeZone === 'string' ? spec.timeZone : '<none>';
  return {
    cells: [
      nameOf(o),
      str(spec.schedule),
      timeZone,
      boolPtr(spec.suspend),
      arr(status.active).length,
      last,
      ageOf(o, now),
      names,
      images,
      formatLabelSelector(jobSpec.selector),
    ],
  };
}
