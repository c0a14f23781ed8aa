/**
 * The certificate controllers of kube-controller-manager: the signer for approved
 * CertificateSigningRequests and the cleaner that deletes finished ones.
 *
 * @module
 */
export { CSR_CLEANER_CONTROLLER_NAME, csrCleanerController, isCleanable } from './cleaner.js';
export {
  CSR_RESOURCE,
  CSR_SIGNING_CONTROLLER_NAME,
  type CsrSigningBackend,
  type CsrSigningOptions,
  csrSigningController,
} from './signing-controller.js';
export { planSigning, type RequestSubject, type SigningDecision } from './signing-plan.js';
