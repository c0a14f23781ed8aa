/**
 * The ServiceAccounts controller: a `default` ServiceAccount in every namespace.
 *
 * @module
 */
export {
  SERVICE_ACCOUNT_CONTROLLER_NAME,
  SERVICE_ACCOUNTS_RESOURCE,
  serviceAccountController,
} from './controller.js';
export { isNamespaceGoneOrTerminating } from './namespace-errors.js';
export { isActiveNamespace, planServiceAccounts, SERVICE_ACCOUNTS_TO_ENSURE } from './plan.js';
