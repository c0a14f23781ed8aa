/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as a served kind (upstream
 * `registry/customresourcedefinition` strategy and its `Delete`): defaults, validation of the
 * definition itself, `status.storedVersions`, and the cleanup finalizer that holds a deleted
 * CRD until its custom resources are gone.
 *
 * @module
 */

import {
  CRD_CLEANUP_FINALIZER,
  CRD_GROUP,
  type CustomResourceDefinition,
} from '../api/crd-types.js';
import type { FieldError } from '../api/field-error.js';
import type { KubeObject } from '../api/object.js';
import type { ResourceDefinition } from '../api/resource.js';
import { asCrd } from './crd-object.js';
import { setCondition } from './crd-status.js';

/** Validation and defaulting of the CRD object (pure; see `crd-validation/`). */
export interface CrdChecks {
  defaults(crd: KubeObject): void;
  validate(crd: KubeObject): FieldError[];
  validateUpdate(crd: KubeObject, old: KubeObject): FieldError[];
}

function storageVersion(crd: CustomResourceDefinition): string | undefined {
  return crd.spec?.versions?.find((v) => v.storage)?.name;
}

export function crdResource(checks: CrdChecks, now: () => string): ResourceDefinition {
  return {
    group: CRD_GROUP,
    version: 'v1',
    kind: 'CustomResourceDefinition',
    listKind: 'CustomResourceDefinitionList',
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    nameValidation: 'dns-subdomain',
    generation: 'spec',
    statusSubresource: true,
    strategy: {
      defaults: (obj) => checks.defaults(obj),
      prepareForCreate(obj) {
        // Upstream PrepareForCreate: a fresh status that records the storage version.
        const crd = asCrd(obj);
        const stored = storageVersion(crd);
        crd.status = stored ? { storedVersions: [stored] } : {};
      },
      prepareForUpdate(obj, old) {
        // A new storage version is added to storedVersions (never removed here).
        const crd = asCrd(obj);
        const status = { ...asCrd(old).status };
        const stored = storageVersion(crd);
        const versions = status.storedVersions ?? [];
        if (stored && !versions.includes(stored)) status.storedVersions = [...versions, stored];
        crd.status = status;
      },
      validate: (obj) => checks.validate(obj),
      validateUpdate: (obj, old) => checks.validateUpdate(obj, old),
      // The first DELETE only marks the CRD; the cleanup finalizer then holds it.
      holdsDeletion: (obj) => !obj.metadata?.deletionTimestamp,
      prepareForDeletion(obj) {
        const crd = asCrd(obj);
        const meta = crd.metadata ?? {};
        const finalizers = meta.finalizers ?? [];
        if (!finalizers.includes(CRD_CLEANUP_FINALIZER)) {
          meta.finalizers = [...finalizers, CRD_CLEANUP_FINALIZER];
        }
        crd.metadata = meta;
        crd.status = {
          ...crd.status,
          conditions: setCondition(
            crd.status?.conditions ?? [],
            {
              type: 'Terminating',
              status: 'True',
              reason: 'InstanceDeletionPending',
              message:
                'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
            },
            now(),
          ),
        };
      },
    },
  };
}
