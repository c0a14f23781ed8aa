/**
 * The round-trip properties over the real generated schemas of Deployment, Pod and StatefulSet
 * (merge keys and strategies as the API server publishes them).
 */
import { loadBuiltinSchemas } from '../../schema/builtin/index.js';
import { roundTripProperties } from './testdata/round-trip-properties.js';

const builtin = await loadBuiltinSchemas();
const kinds = [
  { group: 'apps', version: 'v1', kind: 'Deployment' },
  { group: '', version: 'v1', kind: 'Pod' },
  { group: 'apps', version: 'v1', kind: 'StatefulSet' },
];
for (const gvk of kinds) {
  const schema = builtin.schemaFor(gvk);
  if (schema === undefined) throw new Error(`no built-in schema for ${gvk.kind}`);
  roundTripProperties({ name: `built-in ${gvk.kind}`, schema, nav: builtin.navigator }, 200);
}
