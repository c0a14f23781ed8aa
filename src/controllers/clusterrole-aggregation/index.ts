/**
 * The ClusterRole aggregation controller: aggregated ClusterRoles' rules.
 *
 * @module
 */
export { CLUSTERROLE_AGGREGATION_NAME, clusterRoleAggregationController } from './controller.js';
export { aggregatedRoleNames, aggregatedRules, planAggregation } from './plan.js';
