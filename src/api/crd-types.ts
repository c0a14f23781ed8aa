/**
 * The shape of apiextensions.k8s.io/v1 CustomResourceDefinition objects as this server reads
 * them (upstream `apiextensions/v1/types.go`). Objects arrive as JSON, so every field is
 * optional here; validation guarantees what the registration code relies on.
 *
 * @module
 */
import type { KubeObject } from './object.js';
import type { PrinterColumn } from './resource.js';
import type { Schema } from './schema/types.js';

export const CRD_GROUP = 'apiextensions.k8s.io';
/** Held by a deleted CRD until its custom resources are gone (upstream `CustomResourceCleanupFinalizer`). */
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

export interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

export interface CrdScaleSubresource {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Schema };
  subresources?: { status?: object; scale?: CrdScaleSubresource };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: { jsonPath?: string }[];
}

export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CrdSpec {
  group?: string;
  names?: CrdNames;
  scope?: 'Namespaced' | 'Cluster';
  versions?: CrdVersion[];
  conversion?: { strategy?: string };
  preserveUnknownFields?: boolean;
}

export interface CrdStatus {
  acceptedNames?: CrdNames;
  conditions?: CrdCondition[];
  storedVersions?: string[];
}

export interface CustomResourceDefinition extends KubeObject {
  spec?: CrdSpec;
  status?: CrdStatus;
}

export function conditionOf(crd: CustomResourceDefinition, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}

export function isEstablished(crd: CustomResourceDefinition): boolean {
  return conditionOf(crd, 'Established')?.status === 'True';
}
