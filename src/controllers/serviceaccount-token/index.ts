/**
 * The tokens controller: legacy `kubernetes.io/service-account-token` Secrets.
 *
 * @module
 */
export {
  SERVICE_ACCOUNT_TOKEN_CONTROLLER_NAME,
  type ServiceAccountTokensOptions,
  serviceAccountTokensController,
  type TokenGenerator,
} from './controller.js';
export {
  filledTokenSecret,
  isServiceAccountTokenSecret,
  isTokenOf,
  planTokenSecret,
  SERVICE_ACCOUNT_NAME_KEY,
  SERVICE_ACCOUNT_TOKEN_TYPE,
  SERVICE_ACCOUNT_UID_KEY,
  tokenSecretNeeds,
} from './plan.js';
