/**
 * `authentication.k8s.io/v1` SelfSubjectReview (upstream `pkg/registry/authentication/
 * selfsubjectreview`, `kubectl auth whoami`): answers with the requester's own user info, the
 * impersonated user's when the request impersonates. Whatever the body holds besides its kind,
 * the answer is a new object stamped with the time of the request.
 *
 * @module
 */
import type { SelfSubjectReview } from '../../api/model/index.js';
import { formatTime } from '../../api/time.js';
import { modelUser } from './token-review.js';
import type { UserInfo } from './user.js';

/** The SelfSubjectReview upstream returns for `user` at `now` (epoch ms). */
export function selfSubjectReview(user: UserInfo, now: number): SelfSubjectReview {
  return {
    kind: 'SelfSubjectReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: { creationTimestamp: formatTime(now) },
    status: { userInfo: modelUser(user) },
  };
}
