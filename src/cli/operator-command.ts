/**
 * `fleetyard operator`: the celld fleet operator as a process of its own, the same
 * reconciler `fleetyard up` runs in-process, deployed on any cluster by `deploy/operator/`.
 * In a Pod it connects with its ServiceAccount (in-cluster); elsewhere with a kubeconfig.
 * Several replicas compete for the Lease `celld-operator.celld.fleetyard.dev` in the
 * operator namespace; only the holder reconciles.
 *
 * The flags (and the usage text) are in operator-flags.ts and the process in
 * operator-run.ts; this file only ties in the reconciler, so the rest is tested without it.
 *
 * @module
 */
import { celldOperator } from '../operator/controller/index.js';
import { runOperatorCli } from './operator-run.js';

/** Runs the operator until `signal` aborts; 2 on an invalid flag, 1 on a lost Lease. */
export function runOperator(argv: readonly string[], signal: AbortSignal): Promise<number> {
  return runOperatorCli(argv, signal, { operator: celldOperator });
}
