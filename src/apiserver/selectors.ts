/**
 * The label and field selectors of a list or watch request, parsed once and checked against
 * what the kind can select on. Bad selectors are 400 BadRequest, as upstream.
 *
 * @module
 */
import { errorMessage } from '../api/error-message.js';
import { badRequest } from '../api/errors.js';
import {
  checkFieldSelectorFields,
  type FieldSelector,
  fieldLabelNotSupportedMessage,
  parseFieldSelector,
  unknownFieldSelectorMessage,
} from '../api/fields/selector.js';
import { type LabelSelector, parseLabelSelector } from '../api/labels/selector.js';
import type { ResourceDefinition } from '../api/resource.js';
import { type Attributes, selectableFieldNames } from './store/attributes.js';

export interface RequestSelector {
  readonly empty: boolean;
  matches(a: Attributes): boolean;
}

export function parseRequestSelector(
  def: ResourceDefinition,
  query: URLSearchParams,
): RequestSelector {
  const labels = parseOrBadRequest(() => parseLabelSelector(query.get('labelSelector') ?? ''));
  const fields = parseOrBadRequest(() => parseFieldSelector(query.get('fieldSelector') ?? ''));
  const unknown = checkFieldSelectorFields(fields, selectableFieldNames(def));
  if (unknown !== undefined) {
    // Kinds with their own field-label conversion (pods, events, secrets…) word it differently.
    const own = def.strategy.selectableFields !== undefined;
    throw badRequest(
      own ? fieldLabelNotSupportedMessage(unknown) : unknownFieldSelectorMessage(unknown),
    );
  }
  return selectorOf(labels, fields);
}

function selectorOf(labels: LabelSelector, fields: FieldSelector): RequestSelector {
  return {
    empty: labels.isEmpty() && fields.isEmpty(),
    matches: (a) => labels.matches(a.labels) && fields.matches(a.fields),
  };
}

function parseOrBadRequest<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw badRequest(errorMessage(e));
  }
}
