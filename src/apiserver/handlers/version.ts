/**
 * `GET /version`. fleetyard serves the API of Kubernetes 1.33 (the newest kubectl it is
 * tested with); the build metadata after `+` names fleetyard, as k3s does (`v1.30.2+k3s1`).
 *
 * @module
 */
import { arch, version as nodeVersion, platform } from 'node:process';
import { FLEETYARD_VERSION, KUBERNETES_MINOR } from '../../api/version.js';

export function versionInfo(): object {
  return {
    major: '1',
    minor: KUBERNETES_MINOR,
    emulationMajor: '1',
    emulationMinor: KUBERNETES_MINOR,
    gitVersion: `v1.${KUBERNETES_MINOR}.0+fleetyard.${FLEETYARD_VERSION}`,
    gitCommit: '',
    gitTreeState: 'clean',
    buildDate: '2026-11-30T00:00:00Z',
    goVersion: `node${nodeVersion}`,
    compiler: 'node',
    platform: `${platform}/${arch === 'x64' ? 'amd64' : arch}`,
  };
}
