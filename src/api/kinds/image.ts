/**
 * Container image references, only as far as defaulting needs them: upstream's
 * `parsers.ParseImageName` decides `imagePullPolicy` from the tag (`Always` for `:latest` or no
 * tag and no digest, `IfNotPresent` otherwise, including for references it cannot parse).
 *
 * The grammar is the docker/distribution reference grammar (`ParseNormalizedNamed`).
 *
 * @module
 */

const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*`;
const HOST = `(?:${DOMAIN_NAME}|\\[[a-fA-F0-9:]+\\])`;
const DOMAIN = `${HOST}(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE_RE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const NAME_MAX_LENGTH = 255;

/** The parts of an image reference. */
export interface ImageReference {
  readonly name: string;
  /** The tag; `latest` when neither a tag nor a digest was given (as upstream fills it). */
  readonly tag: string;
  readonly digest: string;
}

/** Upstream `ParseImageName`, or undefined when the reference does not parse. */
export function parseImageName(image: string): ImageReference | undefined {
  const m = REFERENCE_RE.exec(image);
  if (m === null) return undefined;
  const name = m[1] ?? '';
  if (name.length > NAME_MAX_LENGTH) return undefined;
  const tag = m[2] ?? '';
  const digest = m[3] ?? '';
  return { name, tag: tag === '' && digest === '' ? 'latest' : tag, digest };
}

/** Upstream `SetDefaults_Container`'s pull policy for an image. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return parseImageName(image)?.tag === 'latest' ? 'Always' : 'IfNotPresent';
}
