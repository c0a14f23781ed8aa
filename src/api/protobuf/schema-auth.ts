/**
 * Protobuf schema tables: authentication.k8s.io/v1 (TokenReview, SelfSubjectReview and the
 * `serviceaccounts/{name}/token` body TokenRequest) and authorization.k8s.io/v1 (the four
 * access reviews). kubectl 1.33's typed clients POST these as protobuf: `kubectl auth can-i`
 * (SelfSubjectAccessReview), `auth can-i --list` (SelfSubjectRulesReview), `auth whoami`
 * (SelfSubjectReview) and `create token` (TokenRequest).
 *
 * Field numbers from k8s.io/api v0.33 `authentication/v1/generated.proto` and
 * `authorization/v1/generated.proto`; rows in Go struct order, flags from the `json` tags.
 * Filed under the `core` table group as `core.authentication.*` / `core.authorization.*`,
 * since `TableGroup` has neither group (the names are internal, never on the wire).
 *
 * `ExtraValue` (`type ExtraValue []string`) is a message `{repeated string items = 1}` on the
 * wire but a plain string array in JSON: {@link authJsonForms} is its JSON form, for
 * `JSON_FORMS` in `json-forms.ts`. Both groups' `ExtraValue` have the same wire shape, so one
 * table serves both.
 *
 * @module
 */
import type { JsonForm } from './json-forms.js';
import type { FieldRow, MessageName, MessageTables } from './schema.js';

const EXTRA_VALUE = 'core.authentication.ExtraValue';

/** JSON forms of these tables' messages: `ExtraValue` is its `items`, `null` when nil. */
export const authJsonForms: Readonly<Partial<Record<MessageName, JsonForm>>> = {
  // The table row has no omitempty, so `items` is always there: the list or null.
  [EXTRA_VALUE]: (fields) => fields.items,
};

/** Tables for authentication.k8s.io/v1 messages. */
export const authenticationTables: MessageTables = {
  /** k8s.io.api.authentication.v1.TokenReview */
  'core.authentication.TokenReview': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.authentication.TokenReviewSpec'],
    [3, 'status', 'core.authentication.TokenReviewStatus', 'o'],
  ],
  'core.authentication.TokenReviewSpec': [
    [1, 'token', 'string', 'o'],
    [2, 'audiences', 'string', 'or'],
  ],
  'core.authentication.TokenReviewStatus': [
    [1, 'authenticated', 'bool', 'o'],
    [2, 'user', 'core.authentication.UserInfo', 'o'],
    [4, 'audiences', 'string', 'or'],
    [3, 'error', 'string', 'o'],
  ],
  'core.authentication.UserInfo': [
    [1, 'username', 'string', 'o'],
    [2, 'uid', 'string', 'o'],
    [3, 'groups', 'string', 'or'],
    [4, 'extra', EXTRA_VALUE, 'om'],
  ],
  [EXTRA_VALUE]: [[1, 'items', 'string', 'r']],
  /** …SelfSubjectReview: no spec, the server fills in the status. */
  'core.authentication.SelfSubjectReview': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'status', 'core.authentication.SelfSubjectReviewStatus', 'o'],
  ],
  'core.authentication.SelfSubjectReviewStatus': [
    [1, 'userInfo', 'core.authentication.UserInfo', 'o'],
  ],
  /** …TokenRequest: the body of `serviceaccounts/{name}/token`; no field is omitempty. */
  'core.authentication.TokenRequest': [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', 'core.authentication.TokenRequestSpec'],
    [3, 'status', 'core.authentication.TokenRequestStatus', 'o'],
  ],
  // Go order is audiences, expirationSeconds (4), boundObjectRef (3).
  'core.authentication.TokenRequestSpec': [
    [1, 'audiences', 'string', 'r'],
    [4, 'expirationSeconds', 'int64', 'p'],
    [3, 'boundObjectRef', 'core.authentication.BoundObjectReference', 'p'],
  ],
  'core.authentication.TokenRequestStatus': [
    [1, 'token', 'string'],
    [2, 'expirationTimestamp', 'Time'],
  ],
  /** The proto names field 4 `uID`; its JSON name is `uid`. */
  'core.authentication.BoundObjectReference': [
    [1, 'kind', 'string', 'o'],
    [2, 'apiVersion', 'string', 'o'],
    [3, 'name', 'string', 'o'],
    [4, 'uid', 'string', 'o'],
  ],
};

/** The top-level object of every authorization review: metadata, spec, status. */
function review(spec: MessageName, status: MessageName): readonly FieldRow[] {
  return [
    [1, 'metadata', 'meta.ObjectMeta', 'o'],
    [2, 'spec', spec],
    [3, 'status', status, 'o'],
  ];
}

/** Tables for authorization.k8s.io/v1 messages. */
export const authorizationTables: MessageTables = {
  /** k8s.io.api.authorization.v1.SubjectAccessReview (LocalSubjectAccessReview has its shape) */
  'core.authorization.SubjectAccessReview': review(
    'core.authorization.SubjectAccessReviewSpec',
    'core.authorization.SubjectAccessReviewStatus',
  ),
  'core.authorization.LocalSubjectAccessReview': review(
    'core.authorization.SubjectAccessReviewSpec',
    'core.authorization.SubjectAccessReviewStatus',
  ),
  'core.authorization.SelfSubjectAccessReview': review(
    'core.authorization.SelfSubjectAccessReviewSpec',
    'core.authorization.SubjectAccessReviewStatus',
  ),
  'core.authorization.SelfSubjectRulesReview': review(
    'core.authorization.SelfSubjectRulesReviewSpec',
    'core.authorization.SubjectRulesReviewStatus',
  ),
  'core.authorization.SubjectAccessReviewSpec': [
    [1, 'resourceAttributes', 'core.authorization.ResourceAttributes', 'op'],
    [2, 'nonResourceAttributes', 'core.authorization.NonResourceAttributes', 'op'],
    [3, 'user', 'string', 'o'],
    [4, 'groups', 'string', 'or'],
    [5, 'extra', EXTRA_VALUE, 'om'],
    [6, 'uid', 'string', 'o'],
  ],
  'core.authorization.SelfSubjectAccessReviewSpec': [
    [1, 'resourceAttributes', 'core.authorization.ResourceAttributes', 'op'],
    [2, 'nonResourceAttributes', 'core.authorization.NonResourceAttributes', 'op'],
  ],
  'core.authorization.SelfSubjectRulesReviewSpec': [[1, 'namespace', 'string', 'o']],
  'core.authorization.ResourceAttributes': [
    [1, 'namespace', 'string', 'o'],
    [2, 'verb', 'string', 'o'],
    [3, 'group', 'string', 'o'],
    [4, 'version', 'string', 'o'],
    [5, 'resource', 'string', 'o'],
    [6, 'subresource', 'string', 'o'],
    [7, 'name', 'string', 'o'],
    [8, 'fieldSelector', 'core.authorization.FieldSelectorAttributes', 'op'],
    [9, 'labelSelector', 'core.authorization.LabelSelectorAttributes', 'op'],
  ],
  'core.authorization.NonResourceAttributes': [
    [1, 'path', 'string', 'o'],
    [2, 'verb', 'string', 'o'],
  ],
  'core.authorization.FieldSelectorAttributes': [
    [1, 'rawSelector', 'string', 'o'],
    [2, 'requirements', 'core.authorization.FieldSelectorRequirement', 'or'],
  ],
  'core.authorization.LabelSelectorAttributes': [
    [1, 'rawSelector', 'string', 'o'],
    [2, 'requirements', 'meta.LabelSelectorRequirement', 'or'],
  ],
  /**
   * k8s.io.apimachinery.pkg.apis.meta.v1.FieldSelectorRequirement, used only here: filed
   * with these tables so a later `meta.*` table of it cannot clash at load.
   */
  'core.authorization.FieldSelectorRequirement': [
    [1, 'key', 'string'],
    [2, 'operator', 'string'],
    [3, 'values', 'string', 'or'],
  ],
  /** `allowed` has no omitempty: a denial still says `"allowed": false`. */
  'core.authorization.SubjectAccessReviewStatus': [
    [1, 'allowed', 'bool'],
    [4, 'denied', 'bool', 'o'],
    [2, 'reason', 'string', 'o'],
    [3, 'evaluationError', 'string', 'o'],
  ],
  'core.authorization.SubjectRulesReviewStatus': [
    [1, 'resourceRules', 'core.authorization.ResourceRule', 'r'],
    [2, 'nonResourceRules', 'core.authorization.NonResourceRule', 'r'],
    [3, 'incomplete', 'bool'],
    [4, 'evaluationError', 'string', 'o'],
  ],
  'core.authorization.ResourceRule': [
    [1, 'verbs', 'string', 'r'],
    [2, 'apiGroups', 'string', 'or'],
    [3, 'resources', 'string', 'or'],
    [4, 'resourceNames', 'string', 'or'],
  ],
  'core.authorization.NonResourceRule': [
    [1, 'verbs', 'string', 'r'],
    [2, 'nonResourceURLs', 'string', 'or'],
  ],
};
