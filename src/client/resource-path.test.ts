import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { objectRef, type ResourcePathParts, resourcePath } from './resource-path.js';

const PODS = { group: '', version: 'v1', plural: 'pods' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', plural: 'deployments' };

describe('resourcePath', () => {
  const cases: Array<[string, ResourcePathParts, string]> = [
    ['core, all namespaces', PODS, '/api/v1/pods'],
    ['core, one namespace', { ...PODS, namespace: 'ns' }, '/api/v1/namespaces/ns/pods'],
    ['core object', { ...PODS, namespace: 'ns', name: 'x' }, '/api/v1/namespaces/ns/pods/x'],
    [
      'core subresource',
      { ...PODS, namespace: 'ns', name: 'x', subresource: 'status' },
      '/api/v1/namespaces/ns/pods/x/status',
    ],
    ['empty namespace is all namespaces', { ...PODS, namespace: '' }, '/api/v1/pods'],
    [
      'group object',
      { ...DEPLOYMENTS, namespace: 'default', name: 'web', subresource: 'scale' },
      '/apis/apps/v1/namespaces/default/deployments/web/scale',
    ],
    [
      'cluster-scoped object',
      { group: '', version: 'v1', plural: 'nodes', name: 'node-1' },
      '/api/v1/nodes/node-1',
    ],
    [
      'the namespace object itself',
      { group: '', version: 'v1', plural: 'namespaces', name: 'kube-system' },
      '/api/v1/namespaces/kube-system',
    ],
    [
      'names are URL-encoded',
      { ...PODS, namespace: 'ns', name: 'a b?c#d:e' },
      '/api/v1/namespaces/ns/pods/a%20b%3Fc%23d%3Ae',
    ],
    [
      'custom resource',
      { group: 'example.com', version: 'v1beta1', plural: 'widgets', namespace: 'n', name: 'w' },
      '/apis/example.com/v1beta1/namespaces/n/widgets/w',
    ],
  ];
  for (const [what, parts, want] of cases) {
    it(what, () => assert.equal(resourcePath(parts), want));
  }

  const refused: Array<[string, ResourcePathParts, RegExp]> = [
    ['name "."', { ...PODS, name: '.' }, /invalid name "\.": may not be '\.'/],
    ['name ".."', { ...PODS, name: '..' }, /may not be '\.\.'/],
    ['a slash in a name', { ...PODS, name: 'a/b' }, /may not contain '\/'/],
    ['a percent in a namespace', { ...PODS, namespace: 'a%2e' }, /invalid namespace .*'%'/],
    ['a subresource without a name', { ...PODS, subresource: 'status' }, /needs a name/],
    ['no plural', { ...PODS, plural: '' }, /plural is required/],
    ['no version', { ...PODS, version: '' }, /version is required/],
  ];
  for (const [what, parts, want] of refused) {
    it(`refuses ${what}`, () => assert.throws(() => resourcePath(parts), want));
  }

  it('keeps any allowed name as one segment that decodes back to it', () => {
    const name = fc
      .string({ minLength: 1, maxLength: 20, unit: 'binary' })
      .filter((s) => s !== '.' && s !== '..' && !s.includes('/') && !s.includes('%'));
    fc.assert(
      fc.property(name, (n) => {
        const path = resourcePath({ ...PODS, namespace: 'ns', name: n });
        const segments = path.split('/');
        assert.equal(segments.length, 7);
        assert.equal(decodeURIComponent(segments[6] ?? ''), n);
        // A URL keeps the path as it is: nothing is reinterpreted as query, fragment or dot segment.
        assert.equal(new URL(path, 'http://h').pathname, path);
      }),
    );
  });
});

describe('objectRef', () => {
  it('takes name and namespace from the metadata', () => {
    assert.deepEqual(objectRef(PODS, { metadata: { name: 'x', namespace: 'ns' } }), {
      ...PODS,
      name: 'x',
      namespace: 'ns',
    });
    assert.deepEqual(objectRef(PODS, { metadata: { name: 'n' } }), { ...PODS, name: 'n' });
  });

  it('refuses an object without a name', () => {
    assert.throws(() => objectRef(PODS, { metadata: {} }), /no metadata.name/);
  });
});
