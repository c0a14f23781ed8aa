import { deploymentNav, deploymentSchema } from './testdata/deployment-schema.js';
import { mergeItemNav, mergeItemSchema } from './testdata/merge-item-schema.js';
import { roundTripProperties, type Subject } from './testdata/round-trip-properties.js';

const subjects: Subject[] = [
  { name: 'Deployment fixture', schema: deploymentSchema, nav: deploymentNav },
  { name: 'MergeItem fixture', schema: mergeItemSchema, nav: mergeItemNav },
];

for (const s of subjects) roundTripProperties(s);
