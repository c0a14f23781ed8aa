/**
 * Storage: claims (Lost ones first, with a red badge that says "Lost"), volumes, classes
 * and the provisioned capacity per zone, with the zone's storage fault switch.
 *
 * @module
 */
import { failingZones } from '../data/cluster-map.js';
import { objectHref } from '../data/relations.js';
import { formatBytes } from '../data/storage.js';
import { shown, storage } from '../state.js';
import { ActionButton, Empty, Phase, TableWrap } from './common.js';

const PVC = { group: '', resource: 'persistentvolumeclaims' } as const;
const PV = { group: '', resource: 'persistentvolumes' } as const;
const SC = { group: 'storage.k8s.io', resource: 'storageclasses' } as const;

export function StorageView() {
  const m = storage.value;
  const failing = failingZones(shown.value.store);
  const lost = m.claims.filter((c) => c.phase === 'Lost').length;
  return (
    <div>
      <h1 class="view-title">Storage</h1>
      {lost > 0 && (
        <p class="banner bad">
          <span aria-hidden="true">✕ </span>
          {lost} claim{lost === 1 ? '' : 's'} Lost: the volume is gone
        </p>
      )}
      <section aria-label="Capacity per zone">
        <h2>Capacity per zone</h2>
        <ul class="capacity">
          {m.zones.map((z) => (
            <li key={z.zone} data-testid="zone-capacity" data-zone={z.zone}>
              <strong>{z.zone === '' ? 'no zone' : z.zone}</strong> {formatBytes(z.bytes)} in{' '}
              {z.volumes} volume{z.volumes === 1 ? '' : 's'}
              {failing.has(z.zone) && (
                <span class="badge bad">
                  <span aria-hidden="true">✕ </span>failing
                </span>
              )}
              {z.zone !== '' && (
                <ActionButton
                  target={z.zone}
                  req={{ action: failing.has(z.zone) ? 'restore-zone' : 'fail-zone', zone: z.zone }}
                  danger={!failing.has(z.zone)}
                />
              )}
            </li>
          ))}
        </ul>
      </section>
      <section aria-label="Claims">
        <h2>Claims</h2>
        {m.claims.length === 0 ? (
          <Empty>No claims.</Empty>
        ) : (
          <TableWrap label="claims table">
            <table class="grid">
              <thead>
                <tr>
                  <th scope="col">Claim</th>
                  <th scope="col">Phase</th>
                  <th scope="col">Volume</th>
                  <th scope="col">Class</th>
                  <th scope="col">Size</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {m.claims.map((c) => (
                  <tr
                    key={c.key}
                    data-testid="claim-row"
                    data-claim={c.key}
                    data-phase={c.phase}
                    class={c.phase === 'Lost' ? 'row-bad' : undefined}
                  >
                    <td>
                      <a href={objectHref(PVC, c.namespace, c.name)}>{c.key}</a>
                    </td>
                    <td>
                      <Phase phase={c.phase} />
                    </td>
                    <td>
                      {c.volume === '' ? (
                        '—'
                      ) : (
                        <a href={objectHref(PV, undefined, c.volume)}>{c.volume}</a>
                      )}
                    </td>
                    <td>{c.storageClass || '—'}</td>
                    <td>{c.capacity || '—'}</td>
                    <td class="actions">
                      {c.volume !== '' && c.phase !== 'Lost' && (
                        <ActionButton
                          target={c.key}
                          req={{ action: 'lose-volume', namespace: c.namespace, name: c.name }}
                          danger
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      <section aria-label="Volumes">
        <h2>Volumes</h2>
        {m.pvs.length === 0 ? (
          <Empty>No volumes.</Empty>
        ) : (
          <TableWrap label="volumes table">
            <table class="grid">
              <thead>
                <tr>
                  <th scope="col">Volume</th>
                  <th scope="col">Phase</th>
                  <th scope="col">Claim</th>
                  <th scope="col">Size</th>
                  <th scope="col">Class</th>
                  <th scope="col">Pinned to</th>
                  <th scope="col">Reclaim</th>
                </tr>
              </thead>
              <tbody>
                {m.pvs.map((v) => (
                  <tr key={v.name} data-testid="pv-row" data-pv={v.name} data-phase={v.phase}>
                    <td>
                      <a href={objectHref(PV, undefined, v.name)}>{v.name}</a>
                    </td>
                    <td>
                      <Phase phase={v.phase} />
                    </td>
                    <td>{v.claim || '—'}</td>
                    <td>{v.capacity || '—'}</td>
                    <td>{v.storageClass || '—'}</td>
                    <td>{v.pinnedTo || '—'}</td>
                    <td>{v.reclaimPolicy}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </section>
      <section aria-label="Storage classes">
        <h2>Classes</h2>
        <TableWrap label="storage classes table">
          <table class="grid">
            <thead>
              <tr>
                <th scope="col">Class</th>
                <th scope="col">Provisioner</th>
                <th scope="col">Binding</th>
                <th scope="col">Reclaim</th>
              </tr>
            </thead>
            <tbody>
              {m.classes.map((c) => (
                <tr key={c.name} data-testid="class-row" data-class={c.name}>
                  <td>
                    <a href={objectHref(SC, undefined, c.name)}>{c.name}</a>
                    {c.isDefault && <span class="muted"> (default)</span>}
                  </td>
                  <td>{c.provisioner}</td>
                  <td>{c.bindingMode}</td>
                  <td>{c.reclaimPolicy}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </section>
    </div>
  );
}
