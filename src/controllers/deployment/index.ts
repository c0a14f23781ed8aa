/**
 * The Deployment controller (`deployment-controller`): rolling and recreate rollouts of
 * ReplicaSets, proportional scaling, pause, progress deadlines and revision history.
 *
 * @module
 */
export { CONTROLLER_NAME, deploymentController, startDeploymentController } from './controller.js';
