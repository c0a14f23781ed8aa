/**
 * How the API server serves resources beyond its built-in kinds, without knowing what they are:
 * something that adds kinds to the registry (apiextensions adds CustomResourceDefinition, then a
 * resource per served CRD version) implements {@link ApiExtensions}, and `fleetyard up` hands
 * its factory to the server (`ApiServerConfig.extensions`). A server without one serves only
 * the built-in kinds: no CRD kind in discovery, no custom resources.
 *
 * The interface lives here, and `src/apiextensions/` implements it, so the dependency points
 * one way (apiextensions uses the registry and the object store; the server never imports
 * apiextensions), as kube-apiserver delegates to the apiextensions-apiserver it is given.
 *
 * @module
 */
import type { ResourceDefinition } from '../api/resource.js';
import type { Clock } from '../util/clock.js';
import type { ResourceRegistry } from './registry.js';
import type { ObjectStore } from './store/object-store.js';

/** What the server gives an extension: its own store, registry and clock. */
export interface ApiExtensionsHost {
  /** The server's object store (the extension reads, watches and writes through it). */
  readonly store: ObjectStore;
  /** The server's registry: the extension adds and removes what it serves at run time. */
  readonly registry: ResourceRegistry;
  readonly clock: Clock;
  /** Reports a failure no request sees (a background sync); the message names what failed. */
  readonly onError?: (message: string, error: unknown) => void;
}

/**
 * One server's extension. The server calls, in this order:
 *
 * 1. the factory, in its constructor, then adds {@link resources} to the registry after the
 *    built-in kinds (so discovery lists them after those);
 * 2. {@link start}, in `ApiServer.start` before listening: what is stored is served from the
 *    first request (a restart keeps custom resources served). A rejection fails the start;
 * 3. {@link prepare}, in the background about a second after listening (so the first request
 *    that needs it rarely waits), and awaited by the router before every request whose
 *    definition {@link needsPreparation} says needs it;
 * 4. {@link stop}, in `ApiServer.stop` before requests are drained.
 */
export interface ApiExtensions {
  /** Kinds served from construction on (apiextensions: CustomResourceDefinition). */
  readonly resources: readonly ResourceDefinition[];
  /**
   * Whether serving `def` needs {@link prepare} to have resolved: the strategies of such
   * definitions have synchronous hooks that use what it loads. Called on every resource
   * request, so it is a constant-time test.
   */
  needsPreparation(def: ResourceDefinition): boolean;
  /**
   * Loads what the strategies' synchronous hooks use (apiextensions: the CRD validation,
   * schema and CEL tools, kept off the path to the first answers). Idempotent: every call after
   * the first returns the same promise until it settles. When it rejects, the request that
   * awaited it fails with that error (a 500), the server reports a failed background call to
   * `onError`, and the next call tries again.
   */
  prepare(): Promise<void>;
  /** Serves what is stored (awaiting {@link prepare} itself if that needs it), then follows changes. */
  start(): Promise<void>;
  /** Stops following changes and cancels timers; what is registered stays registered. */
  stop(): void;
}

/** Builds one server's {@link ApiExtensions}; a factory, so each server gets its own. */
export type ApiExtensionsFactory = (host: ApiExtensionsHost) => ApiExtensions;
