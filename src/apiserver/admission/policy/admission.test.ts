import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isStatusError } from '../../../api/errors.js';
import type { KubeObject } from '../../../api/object.js';
import { type PolicyStoreReader, ValidatingAdmissionPolicyAdmission } from './admission.js';
import { binding, deployment, policy } from './testing.js';

/** An in-memory store keyed by `group/resource`. */
class FakeStore implements PolicyStoreReader {
  readonly objects = new Map<string, KubeObject[]>();
  put(group: string, resource: string, obj: KubeObject): void {
    const key = `${group}/${resource}`;
    const list = (this.objects.get(key) ?? []).filter(
      (o) => o.metadata?.name !== obj.metadata?.name,
    );
    list.push(obj);
    this.objects.set(key, list);
  }
  list(group: string, resource: string, namespace?: string): readonly KubeObject[] {
    const all = this.objects.get(`${group}/${resource}`) ?? [];
    return namespace === undefined ? all : all.filter((o) => o.metadata?.namespace === namespace);
  }
  get(
    group: string,
    resource: string,
    namespace: string | undefined,
    name: string,
  ): KubeObject | undefined {
    return this.list(group, resource, namespace).find((o) => o.metadata?.name === name);
  }
  resourceFor(apiVersion: string, kind: string) {
    if (apiVersion === 'v1' && kind === 'ConfigMap')
      return { group: '', resource: 'configmaps', namespaced: true };
    return undefined;
  }
}

const ADMISSION = 'admissionregistration.k8s.io';
const ATTRS = {
  kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
  resource: { group: 'apps', version: 'v1', resource: 'deployments' },
  namespace: 'default',
  userInfo: { username: 'alice', groups: ['system:authenticated'] },
};

function cluster(): { store: FakeStore; plugin: ValidatingAdmissionPolicyAdmission } {
  const store = new FakeStore();
  store.put('', 'namespaces', { metadata: { name: 'default' } });
  store.put('', 'configmaps', {
    metadata: { name: 'limits', namespace: 'default' },
    data: { max: '3' },
  });
  store.put(ADMISSION, 'validatingadmissionpolicies', {
    ...policy('max.example.com', {
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      validations: [
        { expression: 'object.spec.replicas <= int(params.data.max)', message: 'too many' },
      ],
      auditAnnotations: [{ key: 'replicas', valueExpression: 'string(object.spec.replicas)' }],
    }),
  });
  store.put(ADMISSION, 'validatingadmissionpolicybindings', {
    ...binding('max-warn', 'max.example.com', {
      paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
      validationActions: ['Warn'],
    }),
  });
  return { store, plugin: new ValidatingAdmissionPolicyAdmission({ store }) };
}

describe('ValidatingAdmissionPolicyAdmission', () => {
  it('leaves warnings and audit annotations on the request', async () => {
    const { plugin } = cluster();
    const admit = plugin.forRequest(ATTRS);
    await admit.validate(deployment('web', 4), undefined);
    assert.deepEqual(admit.warnings, [
      "Validation failed for ValidatingAdmissionPolicy 'max.example.com' with binding 'max-warn': too many",
    ]);
    assert.deepEqual(admit.auditAnnotations, { 'max.example.com/replicas': '4' });
  });

  it('throws the denial as a StatusError; a retried update replaces the outcome', async () => {
    const { store, plugin } = cluster();
    store.put(ADMISSION, 'validatingadmissionpolicybindings', {
      ...binding('max-deny', 'max.example.com', {
        paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
      }),
    });
    const admit = plugin.forRequest(ATTRS);
    const old = deployment('web', 1);
    await assert.rejects(
      admit.validate(deployment('web', 9), old),
      (e) => isStatusError(e) && e.code === 422,
    );
    await admit.validate(deployment('web', 2), old);
    assert.deepEqual(admit.warnings, []);
    assert.deepEqual(admit.auditAnnotations, { 'max.example.com/replicas': '2' });
  });

  it('infers DELETE and sees the stored object as oldObject', async () => {
    const { store, plugin } = cluster();
    store.put(ADMISSION, 'validatingadmissionpolicies', {
      ...policy('keep.example.com', {
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              operations: ['DELETE'],
              resources: ['deployments'],
            },
          ],
        },
        validations: [
          {
            expression:
              "request.operation == 'DELETE' && object == null && oldObject.spec.replicas == 0",
          },
        ],
      }),
    });
    store.put(ADMISSION, 'validatingadmissionpolicybindings', {
      ...binding('keep', 'keep.example.com'),
    });
    const admit = plugin.forRequest({ ...ATTRS, name: 'web' });
    await assert.rejects(
      admit.validate(undefined, deployment('web', 1)),
      /denied request: failed expression/,
    );
    await admit.validate(undefined, deployment('web', 0));
  });

  it('compiles a policy once per resourceVersion', async () => {
    const { store, plugin } = cluster();
    for (let i = 0; i < 3; i++)
      await plugin.forRequest(ATTRS).validate(deployment('web', 1), undefined);
    assert.equal(plugin.compiledPolicies, 1);
    const current = store.get(
      ADMISSION,
      'validatingadmissionpolicies',
      undefined,
      'max.example.com',
    );
    assert.ok(current?.metadata);
    store.put(ADMISSION, 'validatingadmissionpolicies', {
      ...current,
      metadata: { ...current.metadata, resourceVersion: '999' },
    });
    await plugin.forRequest(ATTRS).validate(deployment('web', 1), undefined);
    assert.equal(plugin.compiledPolicies, 2);
  });
});
