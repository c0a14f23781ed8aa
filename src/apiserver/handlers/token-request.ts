/**
 * `POST /api/v1/namespaces/{ns}/serviceaccounts/{name}/token` (upstream's TokenRequest REST,
 * `kubectl create token`): a signed, audience-bound, expiring ServiceAccount token, optionally
 * bound to a Pod, Secret or Node (`issueTokenRequest` does the rules), answered 201 with the
 * TokenRequest and its `status.token`. Also the ServiceAccount issuer's OIDC discovery
 * documents (`/.well-known/openid-configuration`, `/openid/v1/jwks`).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathNotFound } from '../../api/errors.js';
import { asKind } from '../../api/model/index.js';
import type { TokenIssuer } from '../access-control.js';
import {
  DISCOVERY_CACHE_CONTROL,
  discoveryDocuments,
  issueTokenRequest,
  JWKS_CONTENT_TYPE,
  JWKS_PATH,
  OPENID_CONFIGURATION_CONTENT_TYPE,
  OPENID_CONFIGURATION_PATH,
} from '../authentication/serviceaccount/index.js';
import { decodeObjectBody, readBody } from '../http/body.js';
import { sendJson } from '../http/respond.js';
import type { ApiServices, ResourceCall } from './context.js';
import { asObjectOf } from './object-body.js';
import { sendWarnings } from './strict-decoding.js';

export async function handleTokenRequest(api: ApiServices, call: ResourceCall): Promise<void> {
  const issuer = api.tokens;
  if (issuer === undefined) throw pathNotFound();
  const { info } = call;
  const raw = await decodeObjectBody(await readBody(call.req), call.req.headers['content-type']);
  const request = asKind(
    asObjectOf(call.def, raw, 'TokenRequest', 'authentication.k8s.io/v1'),
    'AuthenticationV1TokenRequest',
  );
  const issued = issueTokenRequest({
    namespace: info.namespace,
    name: info.name,
    serviceAccount: issuer.lookup.get('serviceaccounts', info.namespace, info.name),
    request,
    lookup: issuer.lookup,
    clock: api.clock,
    key: issuer.key,
    issuer: issuer.issuer,
    apiAudiences: issuer.apiAudiences,
  });
  sendWarnings(call.res, issued.warnings);
  sendJson(call.res, 201, issued.response);
}

/** Serves the OIDC discovery documents; false for any other path. */
export function serveIssuerDiscovery(
  issuer: TokenIssuer | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): boolean {
  if (issuer === undefined || (path !== OPENID_CONFIGURATION_PATH && path !== JWKS_PATH)) {
    return false;
  }
  const docs = discoveryDocuments({
    issuer: issuer.issuer,
    externalAddress: req.headers.host ?? 'kubernetes.default.svc',
    keys: [issuer.key],
  });
  const json = path === JWKS_PATH;
  res.writeHead(200, {
    'Content-Type': json ? JWKS_CONTENT_TYPE : OPENID_CONFIGURATION_CONTENT_TYPE,
    'Cache-Control': DISCOVERY_CACHE_CONTROL,
  });
  res.end(json ? docs.jwks : docs.configuration);
  return true;
}
