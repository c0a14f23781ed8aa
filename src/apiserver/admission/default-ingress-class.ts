/**
 * The DefaultIngressClass admission plugin (`plugin/pkg/admission/network/defaultingressclass`):
 * an Ingress created without `spec.ingressClassName` (and without the deprecated
 * `kubernetes.io/ingress.class` annotation) gets the name of the IngressClass annotated
 * `ingressclass.kubernetes.io/is-default-class: "true"`; with several, the newest. No default
 * class: the Ingress is left alone. Creates only, as upstream (updates never gain a class).
 *
 * Upstream runs it as mutating admission before validation; the object store runs admission
 * hooks after validation, which is harmless here: the only field set is an IngressClass's
 * name, which passed name validation when the class was created.
 *
 * @module
 */
import {
  defaultIngressClassOf,
  INGRESS_CLASS_ANNOTATION,
} from '../../api/kinds/networking-ingress.js';
import { isJsonObject } from '../../api/object.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { Backend } from '../../storage/backend.js';
import { resourcePrefix } from '../store/keys.js';
import { parseStoredObject } from '../store/object-json.js';
import type { Admission } from '../store/object-store.js';

const INGRESS_CLASSES = {
  group: 'networking.k8s.io',
  plural: 'ingressclasses',
  namespaced: false,
} as const;

function isIngresses(def: ResourceDefinition): boolean {
  return def.group === 'networking.k8s.io' && def.plural === 'ingresses';
}

/** Reads the IngressClasses from the backend at each create (they are few). */
export function defaultIngressClassAdmission(backend: Backend): Admission {
  return {
    admitCreate(def, _namespace, obj) {
      if (!isIngresses(def)) return;
      const spec = isJsonObject(obj.spec) ? obj.spec : {};
      const className = spec.ingressClassName;
      if (className !== undefined && className !== null) return;
      if (obj.metadata?.annotations?.[INGRESS_CLASS_ANNOTATION] !== undefined) return;
      const classes = backend
        .list(resourcePrefix(INGRESS_CLASSES))
        .items.map((kv) => parseStoredObject(kv.value));
      const name = defaultIngressClassOf(classes)?.metadata?.name;
      if (name === undefined) return;
      obj.spec = { ...spec, ingressClassName: name };
    },
  };
}
