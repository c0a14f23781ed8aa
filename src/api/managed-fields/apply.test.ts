import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../errors.js';
import type { KubeObject } from '../object.js';
import { applyPatch, fieldSetFromPaths, LAST_APPLIED_ANNOTATION, recordUpdate } from './index.js';
import { deployment, deploymentSchema, dig, LATER, NOW, nav, webSpec } from './testing/fixtures.js';

const base = { apiVersion: 'apps/v1', kind: 'Deployment', schema: deploymentSchema, nav } as const;

function apply(
  live: KubeObject | undefined,
  cfg: KubeObject,
  manager = 'kubectl',
  force = false,
  now = NOW,
): KubeObject {
  return applyPatch(live, cfg, { ...base, manager, force, now }).object;
}

function update(
  old: KubeObject | undefined,
  next: KubeObject,
  manager: string,
  now = NOW,
  subresource?: string,
): KubeObject {
  const stored = recordUpdate(old, next, { ...base, manager, now, subresource });
  return { ...stored, metadata: { ...stored.metadata, uid: 'u1' } };
}

function entry(obj: KubeObject, manager: string): Record<string, unknown> | undefined {
  return obj.metadata?.managedFields?.find((e) => e.manager === manager) as
    | Record<string, unknown>
    | undefined;
}

function spec(obj: KubeObject): Record<string, unknown> {
  return obj.spec as Record<string, unknown>;
}

function conflictOf(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a StatusError');
}

describe('applyPatch: create and update', () => {
  it('creates from nothing and records one Apply entry', () => {
    const got = apply(undefined, deployment(webSpec()));
    assert.equal(dig(got.spec, 'template', 'spec', 'containers', 0, 'image'), 'nginx:1.25');
    assert.deepEqual(got.metadata?.managedFields, [
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: '2024-05-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    'f:image': {},
                    'f:name': {},
                    'f:ports': {
                      'k:{"containerPort":80,"protocol":"TCP"}': { 'f:containerPort': {}, '.': {} },
                    },
                    '.': {},
                  },
                },
              },
            },
          },
        },
      },
    ]);
  });

  it('updates a field the applier owns and refreshes the time', () => {
    const first = apply(undefined, deployment(webSpec()));
    const got = apply(first, deployment(webSpec('nginx:1.26')), 'kubectl', false, LATER);
    assert.equal(dig(got.spec, 'template', 'spec', 'containers', 0, 'image'), 'nginx:1.26');
    assert.equal(entry(got, 'kubectl')?.time, '2024-05-01T11:00:00Z');
  });

  it('a no-op apply keeps the object and the entry time', () => {
    const first = apply(undefined, deployment(webSpec()));
    const again = apply(first, deployment(webSpec()), 'kubectl', false, LATER);
    assert.deepEqual(again, first);
  });

  it('keeps fields the applier never mentioned', () => {
    const live = update(undefined, deployment({ ...webSpec(), paused: true }), 'kubectl-create');
    const got = apply(
      live,
      deployment({ template: { metadata: { labels: { tier: 'x' } } } }),
      'other',
    );
    assert.equal(spec(got).paused, true);
    assert.deepEqual(dig(got.spec, 'template', 'metadata', 'labels'), { app: 'web', tier: 'x' });
    assert.equal((dig(got.spec, 'template', 'spec', 'containers') as unknown[]).length, 1);
  });
});

describe('applyPatch: removal', () => {
  it('removes a field the applier owned and no longer applies', () => {
    const cfg = deployment(webSpec(), { labels: { a: '1', b: '2' } });
    const first = apply(undefined, cfg);
    const got = apply(first, deployment(webSpec(), { labels: { a: '1' } }));
    assert.deepEqual(got.metadata?.labels, { a: '1' });
  });

  it('removes a keyed list element the applier dropped', () => {
    const two = webSpec();
    (dig(two, 'template', 'spec', 'containers') as unknown[]).push({
      name: 'sidecar',
      image: 'busybox',
    });
    const first = apply(undefined, deployment(two));
    const got = apply(first, deployment(webSpec()));
    assert.deepEqual(
      (dig(got.spec, 'template', 'spec', 'containers') as { name: string }[]).map(
        (c: { name: string }) => c.name,
      ),
      ['nginx'],
    );
  });

  it('keeps a dropped field another applier also owns (shared ownership)', () => {
    const cfg = deployment(webSpec(), { labels: { a: '1' } });
    const first = apply(undefined, cfg, 'one');
    const both = apply(first, cfg, 'two');
    const got = apply(both, deployment(webSpec()), 'one');
    assert.deepEqual(got.metadata?.labels, { a: '1' });
    assert.ok(entry(got, 'two'));
  });

  it('keeps a field an updater has since taken over', () => {
    const first = apply(undefined, deployment(webSpec(), { labels: { a: '1' } }), 'one');
    const edited = update(
      first,
      { ...first, metadata: { ...first.metadata, labels: { a: 'edited' } } },
      'kubectl-edit',
    );
    const got = apply(edited, deployment(webSpec()), 'one');
    assert.deepEqual(got.metadata?.labels, { a: 'edited' });
  });
});

describe('applyPatch: conflicts', () => {
  const csa = (): KubeObject =>
    update(undefined, deployment(webSpec('nginx:1.25', 1)), 'kubectl-client-side-apply');

  it('409 with upstream message and cause for one conflict', () => {
    const err = conflictOf(() => apply(csa(), deployment(webSpec('nginx:1.25', 2))));
    assert.deepEqual(err.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
      reason: 'Conflict',
      code: 409,
      details: {
        causes: [
          {
            reason: 'FieldManagerConflict',
            message: 'conflict with "kubectl-client-side-apply" using apps/v1',
            field: '.spec.replicas',
          },
        ],
      },
    });
  });

  it('lists several conflicts grouped by manager', () => {
    const err = conflictOf(() => apply(csa(), deployment(webSpec('nginx:2', 2))));
    assert.equal(
      err.message,
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n' +
        '- .spec.replicas\n' +
        '- .spec.template.spec.containers[name="nginx"].image',
    );
    assert.deepEqual(
      err.status.details?.causes?.map((c) => c.field),
      ['.spec.replicas', '.spec.template.spec.containers[name="nginx"].image'],
    );
  });

  it('names an Apply manager without version and a subresource manager with it', () => {
    const byApply = apply(undefined, deployment(webSpec()), 'flux');
    assert.equal(
      conflictOf(() => apply(byApply, deployment(webSpec('x')), 'argo')).message,
      'Apply failed with 1 conflict: conflict with "flux": .spec.template.spec.containers[name="nginx"].image',
    );
    const bySub = update(
      byApply,
      { ...byApply, spec: { ...spec(byApply), replicas: 5 } },
      'hpa',
      NOW,
      'status',
    );
    assert.equal(
      conflictOf(() => apply(bySub, deployment(webSpec('nginx:1.25', 7)), 'flux')).message,
      'Apply failed with 1 conflict: conflict with "hpa" with subresource "status" using apps/v1: .spec.replicas',
    );
  });

  it('applying the value already there is not a conflict: ownership is shared', () => {
    const got = apply(csa(), deployment(webSpec('nginx:1.25', 1)));
    assert.ok(dig(entry(got, 'kubectl'), 'fieldsV1', 'f:spec', 'f:replicas'));
    assert.ok(dig(entry(got, 'kubectl-client-side-apply'), 'fieldsV1', 'f:spec', 'f:replicas'));
  });

  it('force takes the field over', () => {
    const got = apply(csa(), deployment(webSpec('nginx:1.25', 2)), 'kubectl', true);
    assert.equal(spec(got).replicas, 2);
    const theirs = entry(got, 'kubectl-client-side-apply');
    assert.equal(dig(theirs, 'fieldsV1', 'f:spec', 'f:replicas'), undefined);
    assert.ok(dig(theirs, 'fieldsV1', 'f:spec', 'f:template'));
  });

  it('fields present before the first apply belong to before-first-apply', () => {
    const untracked = {
      ...deployment(webSpec()),
      metadata: { name: 'web', namespace: 'default', uid: 'u' },
    };
    const err = conflictOf(() => apply(untracked, deployment(webSpec('nginx:1.25', 3))));
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas',
    );
  });
});

describe('applyPatch: rejected bodies', () => {
  const cases: { name: string; cfg: KubeObject; code: number; message: string }[] = [
    {
      name: 'managedFields in the body',
      cfg: deployment(webSpec(), { managedFields: [] }),
      code: 400,
      message: 'metadata.managedFields must be nil',
    },
    {
      name: 'another kind',
      cfg: { ...deployment(webSpec()), kind: 'ReplicaSet' },
      code: 400,
      message: 'invalid object type: apps/v1, Kind=ReplicaSet',
    },
    {
      name: 'another version',
      cfg: { ...deployment(webSpec()), apiVersion: 'v1' },
      code: 400,
      message: 'invalid object type: /v1, Kind=Deployment',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const err = conflictOf(() =>
        applyPatch(undefined, c.cfg, { ...base, manager: 'm', force: false, now: NOW }),
      );
      assert.equal(err.code, c.code);
      assert.equal(err.message, c.message);
    });
  }

  it('accepts managedFields: null', () => {
    assert.ok(apply(undefined, deployment(webSpec(), { managedFields: null })));
  });
});

describe('applyPatch: client-side apply hand-over', () => {
  const lastApplied = JSON.stringify(deployment(webSpec()));
  const csaLive = (): KubeObject =>
    update(
      undefined,
      deployment(webSpec(), { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } }),
      'kubectl-client-side-apply',
    );

  it('kubectl-last-applied applying only the annotation keeps the spec', () => {
    const live = csaLive();
    const cfg = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } },
    };
    const got = apply(live, cfg, 'kubectl-last-applied');
    assert.deepEqual(got.spec, live.spec);
    const again = apply(got, cfg, 'kubectl-last-applied', false, LATER);
    assert.deepEqual(again.spec, live.spec);
  });

  it('kubectl overrides conflicts with its own client-side apply and refreshes the annotation', () => {
    const cfg = deployment(webSpec('nginx:1.25', 4));
    const got = apply(csaLive(), cfg, 'kubectl');
    assert.equal(spec(got).replicas, 4);
    const text = got.metadata?.annotations?.[LAST_APPLIED_ANNOTATION] ?? '';
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(JSON.parse(text), cfg);
  });

  it('other managers still conflict', () => {
    const err = conflictOf(() => apply(csaLive(), deployment(webSpec('nginx:1.25', 4)), 'helm'));
    assert.equal(err.code, 409);
  });
});

describe('applyPatch: reset fields', () => {
  it('status in the applied config is neither owned nor conflicting', () => {
    const opts = {
      ...base,
      manager: 'm',
      force: false,
      now: NOW,
      resetFields: fieldSetFromPaths([['status']]),
    };
    const got = applyPatch(
      undefined,
      { ...deployment(webSpec()), status: { replicas: 3 } },
      opts,
    ).object;
    const fields = entry(got, 'm')?.fieldsV1 as Record<string, unknown>;
    assert.equal(fields['f:status'], undefined);
  });
});
