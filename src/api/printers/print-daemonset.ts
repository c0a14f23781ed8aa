/**
 * Rows of apps/v1 DaemonSets, as upstream `printDaemonSet` (`pkg/printers/internalversion/
 * printers.go`): NAME, DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, NODE SELECTOR, AGE, and
 * with `-o wide` CONTAINERS, IMAGES, SELECTOR. Counts are integers from the status; the node
 * selector is the template's, formatted as labels (`<none>` when empty).
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, int, nameOf, obj } from './access.js';
import { AGE, column, NAME } from './columns.js';
import { containerCells, formatLabelSelector, formatLabels } from './format.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const text = (t: string) => ({ text: t });
const WIDE = { priority: 1 };

/**
 * Upstream `daemonSetColumnDefinitions`; descriptions are the apps/v1 `SwaggerDoc()` texts
 * (upstream reads extensions/v1beta1's, which differ only for the selector).
 */
export const DAEMON_SET_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column(
    'Desired',
    'integer',
    text(
      'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
  ),
  column(
    'Current',
    'integer',
    text(
      'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
    ),
  ),
  column(
    'Ready',
    'integer',
    text(
      'numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition.',
    ),
  ),
  column(
    'Up-to-date',
    'integer',
    text('The total number of nodes that are running updated daemon pod'),
  ),
  column(
    'Available',
    'integer',
    text(
      'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
    ),
  ),
  column(
    'Node Selector',
    'string',
    text(
      "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
    ),
  ),
  AGE,
  column('Containers', 'string', text('Names of each container in the template.'), WIDE),
  column('Images', 'string', text('Images referenced by each container in the template.'), WIDE),
  column(
    'Selector',
    'string',
    text(
      "A label query over pods that are managed by the daemon set. Must match in order to be controlled. It must match the pod template's labels. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors",
    ),
    WIDE,
  ),
];

/** Upstream `printDaemonSet`. */
export function printDaemonSet(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const podSpec = obj(obj(spec.template).spec);
  const [names, images] = containerCells(podSpec);
  return {
    cells: [
      nameOf(o),
      int(status.desiredNumberScheduled),
      int(status.currentNumberScheduled),
      int(status.numberReady),
      int(status.updatedNumberScheduled),
      int(status.numberAvailable),
      formatLabels(podSpec.nodeSelector),
      ageOf(o, now),
      names,
      images,
      formatLabelSelector(spec.selector),
    ],
  };
}
