/**
 * The StatefulSet controller's writes to pods and claims, with upstream's Events
 * (`stateful_pod_control.go: CreateStatefulPod, UpdateStatefulPod, DeleteStatefulPod,
 * createPersistentVolumeClaims, UpdatePodClaimForRetentionPolicy, recordPodEvent,
 * recordClaimEvent`). Events go on the set, from `statefulset-controller`:
 * - `SuccessfulCreate` "create Pod web-0 in StatefulSet web successful" / `FailedCreate`
 *   "create Pod web-0 in StatefulSet web failed error: <err>" (likewise `delete`, `update`);
 * - `SuccessfulCreate` "create Claim www-web-0 Pod web-0 in StatefulSet web success" /
 *   `FailedCreate` "create Claim www-web-0 for Pod web-0 in StatefulSet web failed error: <err>";
 * - Warning `ConflictingController` for a claim another controller owns.
 * AlreadyExists on a pod create is returned without an Event (a stale cache, as upstream).
 *
 * `claims` is the sync's view of the namespace's claims: the cache plus what this sync wrote,
 * so the retention step after a create sees the claims created a moment before.
 *
 * @module
 */
import {
  asKind,
  type PersistentVolumeClaim,
  type Pod,
  type StatefulSet,
} from '../../api/model/index.js';
import type { KubeObject } from '../../api/object.js';
import type { ApiClient } from '../../client/api-client.js';
import { isAlreadyExists, isNotFound } from '../../client/api-client.js';
import { RESOURCES } from '../../controller/context.js';
import type { EventRecorder } from '../../controller/events.js';
import { claimName, claimsFor, inOrdinalRange, ordinalOf } from './identity.js';
import { viewOf } from './plan-spec.js';
import {
  CONFLICTING_CONTROLLER_REASON,
  conflictingControllerMessage,
  isClaimOwnerUpToDate,
  planClaimRetention,
} from './retention.js';

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function nameOf(obj: KubeObject): string {
  return obj.metadata?.name ?? '';
}

function capitalized(verb: string): string {
  return verb.charAt(0).toUpperCase() + verb.slice(1);
}

/** The pod and claim writes of one sync of one set. */
export class StatefulPodControl {
  readonly #client: ApiClient;
  readonly #recorder: EventRecorder;
  readonly #set: StatefulSet;
  readonly #namespace: string;
  /** Claims by name: the cache, then what this sync created or patched. */
  readonly claims: Map<string, PersistentVolumeClaim>;

  constructor(
    client: ApiClient,
    recorder: EventRecorder,
    set: StatefulSet,
    claims: readonly PersistentVolumeClaim[],
  ) {
    this.#client = client;
    this.#recorder = recorder;
    this.#set = set;
    this.#namespace = set.metadata?.namespace ?? '';
    this.claims = new Map(claims.map((c) => [nameOf(c), c]));
  }

  #podEvent(verb: string, pod: Pod, err?: unknown): void {
    const base = `${verb} Pod ${nameOf(pod)} in StatefulSet ${nameOf(this.#set)}`;
    if (err === undefined) {
      this.#recorder.event(
        this.#set,
        'Normal',
        `Successful${capitalized(verb)}`,
        `${base} successful`,
      );
    } else {
      const msg = `${base} failed error: ${errorText(err)}`;
      this.#recorder.event(this.#set, 'Warning', `Failed${capitalized(verb)}`, msg);
    }
  }

  /** Upstream `createPersistentVolumeClaims` for one claim; AlreadyExists is success. */
  async createClaim(claim: PersistentVolumeClaim, podName: string): Promise<void> {
    const name = nameOf(claim);
    const set = nameOf(this.#set);
    try {
      const created = await this.#client.create(
        { ...RESOURCES.persistentvolumeclaims, namespace: this.#namespace },
        claim,
      );
      this.claims.set(name, asKind(created, 'PersistentVolumeClaim'));
    } catch (err) {
      if (isAlreadyExists(err)) return;
      const msg = `create Claim ${name} for Pod ${podName} in StatefulSet ${set} failed error: ${errorText(err)}`;
      this.#recorder.event(this.#set, 'Warning', 'FailedCreate', msg);
      throw new Error(`failed to create PVC ${name}: ${errorText(err)}`, { cause: err });
    }
    const msg = `create Claim ${name} Pod ${podName} in StatefulSet ${set} success`;
    this.#recorder.event(this.#set, 'Normal', 'SuccessfulCreate', msg);
  }

  /** Upstream `CreateStatefulPod` (its claims were created by earlier actions of the plan). */
  async createPod(pod: Pod): Promise<void> {
    let created: Pod;
    try {
      const collection = { ...RESOURCES.pods, namespace: this.#namespace };
      created = asKind(await this.#client.create(collection, pod), 'Pod');
    } catch (err) {
      if (isAlreadyExists(err)) throw err;
      this.#podEvent('create', pod, err);
      throw err;
    }
    // With the pod's UID known, its claims get the owners the retention policy asks for.
    await this.updateClaimRetention(created);
    this.#podEvent('create', created);
  }

  /** Upstream `DeleteStatefulPod`, with the observed UID as precondition; NotFound is done. */
  async deletePod(pod: Pod): Promise<void> {
    const uid = pod.metadata?.uid;
    try {
      await this.#client.delete(
        { ...RESOURCES.pods, namespace: this.#namespace, name: nameOf(pod) },
        uid ? { preconditions: { uid } } : {},
      );
    } catch (err) {
      if (isNotFound(err)) return;
      this.#podEvent('delete', pod, err);
      throw err;
    }
    this.#podEvent('delete', pod);
  }

  /** Upstream `UpdateStatefulPod`'s write: PUT the repaired pod (409 → retried next sync). */
  async updatePod(pod: Pod): Promise<void> {
    try {
      await this.#client.update(
        { ...RESOURCES.pods, namespace: this.#namespace, name: nameOf(pod) },
        pod,
      );
    } catch (err) {
      this.#podEvent('update', pod, err);
      throw err;
    }
    this.#podEvent('update', pod);
  }

  /** Upstream `ClaimsMatchRetentionPolicy`: every existing claim of the pod has the right owners. */
  retentionUpToDate(pod: Pod): boolean {
    const ordinal = ordinalOf(pod);
    const condemned = !inOrdinalRange(this.#set, ordinal);
    const v = viewOf(this.#set);
    // Names only: building the claims (a template copy each) per pod per sync cost more than
    // the rest of the check.
    return v.claimTemplates.every((t) => {
      const claim = this.claims.get(claimName(t.metadata?.name ?? '', v.name, ordinal));
      return claim === undefined || isClaimOwnerUpToDate(claim, this.#set, pod, condemned);
    });
  }

  /**
   * Upstream `UpdatePodClaimForRetentionPolicy`: update each existing claim's ownerReferences to
   * what the policy wants; missing claims are skipped; a foreign controller gets a Warning and
   * the claim's foreign refs are kept.
   */
  async updateClaimRetention(pod: Pod): Promise<void> {
    const condemned = !inOrdinalRange(this.#set, ordinalOf(pod));
    const templates = claimsFor(this.#set, ordinalOf(pod));
    const volumeClaimTemplates = this.#set.spec?.volumeClaimTemplates;
    for (const [i, template] of templates.entries()) {
      const claim = this.claims.get(nameOf(template));
      if (claim === undefined) continue;
      const plan = planClaimRetention({ set: this.#set, pod, condemned, claim });
      if (plan.conflictingController) {
        // Upstream names the claim by its template name (the key of its claims map).
        const templateName = volumeClaimTemplates?.[i]?.metadata?.name ?? '';
        const msg = conflictingControllerMessage(templateName);
        this.#recorder.event(this.#set, 'Warning', CONFLICTING_CONTROLLER_REASON, msg);
      }
      if (plan.updated === undefined) continue;
      const ref = {
        ...RESOURCES.persistentvolumeclaims,
        namespace: this.#namespace,
        name: nameOf(claim),
      };
      try {
        const updated = await this.#client.update(ref, plan.updated);
        this.claims.set(nameOf(claim), asKind(updated, 'PersistentVolumeClaim'));
      } catch (err) {
        if (isNotFound(err)) continue;
        throw new Error(
          `could not update claim ${nameOf(claim)} for delete policy ownerRefs: ${errorText(err)}`,
          { cause: err },
        );
      }
    }
  }
}
