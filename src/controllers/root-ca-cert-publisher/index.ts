/**
 * The root CA certificate publisher: `kube-root-ca.crt` in every namespace.
 *
 * @module
 */
export {
  ROOT_CA_PUBLISHER_NAME,
  type RootCAPublisherOptions,
  rootCACertificatePublisher,
} from './controller.js';
export {
  DESCRIPTION,
  DESCRIPTION_ANNOTATION,
  planRootCAConfigMap,
  ROOT_CA_CONFIG_MAP,
} from './plan.js';
