/**
 * `kubectl get rc` rows, as upstream `printReplicationController`: NAME, DESIRED, CURRENT,
 * READY, AGE; wide CONTAINERS, IMAGES and SELECTOR (the map selector as `k=v,…`).
 *
 * @module
 */
import type { KubeObject } from '../object.js';
import { ageOf, int, nameOf, obj } from './access.js';
import { AGE, column, NAME } from './columns.js';
import { containerCells, formatLabels } from './format.js';
import type { PrintedRow, TableColumnDefinition } from './types.js';

const WIDE = { priority: 1 };

export const REPLICATION_CONTROLLER_COLUMNS: readonly TableColumnDefinition[] = [
  NAME,
  column('Desired', 'integer', {
    text: 'Replicas is the number of desired replicas. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
  }),
  column('Current', 'integer', {
    text: 'Replicas is the most recently observed number of replicas. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicationcontroller#what-is-a-replicationcontroller',
  }),
  column('Ready', 'integer', {
    text: 'The number of ready replicas for this replication controller.',
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
      text: 'Selector is a label query over pods that should match the Replicas count. If Selector is empty, it is defaulted to the labels present on the Pod template. Label keys and values that must match in order to be controlled by this replication controller, if empty defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
    },
    WIDE,
  ),
];

export function printReplicationController(o: KubeObject, now: Date): PrintedRow {
  const spec = obj(o.spec);
  const status = obj(o.status);
  const [names, images] = containerCells(obj(obj(spec.template).spec));
  return {
    cells: [
      nameOf(o),
      int(spec.replicas),
      int(status.replicas),
      int(status.readyReplicas),
      ageOf(o, now),
      names,
      images,
      formatLabels(spec.selector),
    ],
  };
}
