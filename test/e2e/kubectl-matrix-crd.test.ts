/**
 * CustomResourceDefinitions across the matrix, with a realistic "Widget" CRD (required field,
 * enum, defaults, CEL rules including a transition rule, status and scale subresources,
 * printer columns with a priority-1 column, a short name and a category): Established, the
 * resource in api-resources, custom resources through apply (merge patch), the printer
 * columns, the exact 422 texts, pruning and strict decoding, scale and status, the 415 for a
 * strategic patch, describe and explain, and deleting the CRD with its custom resources.
 *
 * The versions share one cluster, so each creates the CRD in `before` and deletes it in its
 * last test; the next version re-creates it (and finds none of the old custom resources).
 *
 * @module
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { describeKubectl, lines, manifest } from './testing/kubectl-fixtures.js';
import {
  AGE,
  applyCreates,
  applyObjects,
  clean,
  MATRIX_VERSIONS,
  manifestOf,
  matrixCluster,
  matrixNamespace,
  objectPath,
  parseTable,
  readsMissing,
  WIDGET_CRD,
  WIDGET_GROUP,
  waitsForGone,
  widget,
  widgetCrd,
} from './testing/matrix-fixtures.js';

const { current, audit } = matrixCluster();

const CRD_PATH = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${WIDGET_CRD}`;
const CRD_REF = `customresourcedefinition.apiextensions.k8s.io/${WIDGET_CRD}`;
// The `after` hook's cleanup of a CRD the last test already deleted.
audit.expectInHooks(
  { method: 'DELETE', path: CRD_PATH, code: 404, why: 'cleanup after the test' },
  { method: 'GET', path: CRD_PATH, code: 404, why: 'delete --wait polls until the CRD is gone' },
);

interface WidgetObject {
  metadata: { name: string; resourceVersion?: string; uid?: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

for (const version of MATRIX_VERSIONS) {
  describeKubectl(version, current, (s) => {
    const n = matrixNamespace(s, audit, 'crd');
    const { ns, kc, run, pipe, read } = n;
    const widgets = objectPath(ns, 'widgets', undefined, WIDGET_GROUP);
    const widgetPath = (name: string) => objectPath(ns, 'widgets', name, WIDGET_GROUP);
    const invalid = (method: string, name: string, why: string) => ({
      method,
      path: method === 'POST' ? widgets : widgetPath(name),
      code: 422,
      why,
      required: true,
    });

    before(async () => {
      clean(
        await s.k().run(['create', '-f', '-'], { input: manifestOf(widgetCrd()) }),
        'create crd',
      );
    });
    after(async () => {
      await s.k().run(['delete', 'crd', WIDGET_CRD, '--ignore-not-found', '--timeout=30s']);
    });

    it('wait --for=condition=Established; the status carries the accepted names', async () => {
      const out = await s
        .k()
        .ok(['wait', '--for=condition=Established', `crd/${WIDGET_CRD}`, '--timeout=30s']);
      assert.equal(out, `${CRD_REF} condition met\n`);
      const crd = JSON.parse(await s.k().ok(['get', 'crd', WIDGET_CRD, '-o', 'json'])) as {
        status: {
          acceptedNames: { kind: string; shortNames?: string[] };
          conditions: Array<{ type: string; status: string }>;
        };
      };
      assert.equal(crd.status.acceptedNames.kind, 'Widget');
      assert.deepEqual(crd.status.acceptedNames.shortNames, ['wd']);
      const conditions = Object.fromEntries(crd.status.conditions.map((c) => [c.type, c.status]));
      assert.equal(conditions.NamesAccepted, 'True');
      assert.equal(conditions.Established, 'True');
    });

    it('api-resources lists widgets with its short name', async () => {
      const t = parseTable(await s.k().ok(['api-resources', `--api-group=${WIDGET_GROUP}`]));
      assert.deepEqual(t.header, ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
      assert.deepEqual(t.rows, [['widgets', 'wd', `${WIDGET_GROUP}/v1`, 'true', 'Widget']]);
    });

    it('apply creates widgets with defaults; get shows the printer columns; wide adds COLOR', async () => {
      audit.expect(applyCreates(widgetPath('w1')), applyCreates(widgetPath('w2')));
      const out = await applyObjects(n, [
        widget('w1', { size: 'small', owner: 'alice' }),
        widget('w2', { size: 'large', color: 'red', replicas: 2 }),
      ]);
      assert.equal(out, `widget.${WIDGET_GROUP}/w1 created\nwidget.${WIDGET_GROUP}/w2 created\n`);
      const w1 = await read<WidgetObject>('widget', 'w1');
      assert.deepEqual(w1.spec, {
        size: 'small',
        owner: 'alice',
        color: 'blue',
        replicas: 1,
        maxReplicas: 10,
      });

      const t = parseTable(await kc('get', 'widgets'));
      assert.deepEqual(t.header, ['NAME', 'SIZE', 'REPLICAS', 'AGE']);
      assert.deepEqual(
        t.rows.map((r) => r.slice(0, 3)),
        [
          ['w1', 'small', '1'],
          ['w2', 'large', '2'],
        ],
      );
      assert.match(t.rows[0]?.[3] ?? '', AGE);
      const wide = parseTable(await kc('get', 'wd', '-o', 'wide'));
      assert.deepEqual(wide.header, ['NAME', 'SIZE', 'REPLICAS', 'COLOR', 'AGE']);
      assert.deepEqual(
        wide.rows.map((r) => r.slice(0, 4)),
        [
          ['w1', 'small', '1', 'blue'],
          ['w2', 'large', '2', 'red'],
        ],
      );
      assert.equal(
        await kc('get', 'fleet', '-o', 'name'),
        `widget.${WIDGET_GROUP}/w1\nwidget.${WIDGET_GROUP}/w2\n`,
      );

      // Re-applying a custom resource goes through a JSON merge patch.
      const changed = await applyObjects(n, [
        widget('w2', { size: 'medium', color: 'red', replicas: 2 }),
      ]);
      assert.equal(changed, `widget.${WIDGET_GROUP}/w2 configured\n`);
      assert.equal((await read<WidgetObject>('widget', 'w2')).spec.size, 'medium');
    });

    it('schema and CEL violations: the exact 422 texts', async () => {
      audit.expect(
        applyCreates(widgetPath('bad')),
        invalid('POST', 'bad', 'enum violation'),
        invalid('POST', 'over', 'CEL rule on spec'),
        invalid('PATCH', 'w1', 'CEL transition rule'),
      );
      const bad = await pipe(manifest(widget('bad', { size: 'huge' })), 'apply', '-f', '-');
      assert.equal(bad.code, 1);
      assert.equal(
        bad.stderr,
        // The unsupported value blocks the CEL rules; upstream adds a cause saying so, and
        // kubectl lists several causes one per line.
        'The Widget "bad" is invalid: \n* spec.size: Unsupported value: "huge": supported values: "small", "medium", "large"\n* <nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation\n',
      );
      const over = await pipe(
        manifest(widget('over', { size: 'small', replicas: 20, maxReplicas: 5 })),
        'create',
        '-f',
        '-',
      );
      assert.equal(over.code, 1);
      assert.equal(
        over.stderr,
        'The Widget "over" is invalid: spec: Invalid value: "object": replicas must not exceed maxReplicas\n',
      );
      const owner = await run(
        'patch',
        'widget',
        'w1',
        '--type=merge',
        '-p',
        '{"spec":{"owner":"bob"}}',
      );
      assert.equal(owner.code, 1);
      assert.equal(
        owner.stderr,
        'The Widget "w1" is invalid: spec.owner: Invalid value: "string": owner is immutable\n',
      );
      assert.equal((await read<WidgetObject>('widget', 'w1')).spec.owner, 'alice');
    });

    it('unknown fields: strict decoding rejects them, --validate=false prunes them', async () => {
      audit.expect({
        method: 'POST',
        path: widgets,
        code: 400,
        why: 'strict decoding',
        required: true,
      });
      const extra = manifest(widget('pruned', { size: 'small', extra: 'x' }));
      const strict = await pipe(extra, 'create', '-f', '-');
      assert.equal(strict.code, 1);
      assert.equal(
        strict.stderr,
        'Error from server (BadRequest): error when creating "STDIN": Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.extra"\n',
      );
      clean(await pipe(extra, 'create', '-f', '-', '--validate=false'), 'create --validate=false');
      const pruned = await read<WidgetObject>('widget', 'pruned');
      assert.equal(pruned.spec.extra, undefined);
      assert.equal(pruned.spec.size, 'small');
    });

    it('scale and status subresources', async () => {
      assert.equal(
        await kc('scale', 'widget/w1', '--replicas=3'),
        `widget.${WIDGET_GROUP}/w1 scaled\n`,
      );
      assert.equal((await read<WidgetObject>('widget', 'w1')).spec.replicas, 3);
      const status = { status: { replicas: 3, phase: 'Ready', selector: 'app=w1' } };
      assert.equal(
        await kc(
          'patch',
          'widget',
          'w1',
          '--subresource=status',
          '--type=merge',
          '-p',
          JSON.stringify(status),
        ),
        `widget.${WIDGET_GROUP}/w1 patched\n`,
      );
      const scale = JSON.parse(await s.k().ok(['get', '--raw', `${widgetPath('w1')}/scale`])) as {
        kind: string;
        spec: { replicas: number };
        status: { replicas: number; selector: string };
      };
      assert.equal(scale.kind, 'Scale');
      assert.deepEqual(
        [scale.spec.replicas, scale.status.replicas, scale.status.selector],
        [3, 3, 'app=w1'],
      );

      // With a status subresource the main resource ignores status changes.
      const before1 = await read<WidgetObject>('widget', 'w1');
      assert.equal(
        await kc('patch', 'widget', 'w1', '--type=merge', '-p', '{"status":{"phase":"Hacked"}}'),
        `widget.${WIDGET_GROUP}/w1 patched (no change)\n`,
      );
      const after1 = await read<WidgetObject>('widget', 'w1');
      assert.equal(after1.status?.phase, 'Ready');
      assert.equal(after1.metadata.resourceVersion, before1.metadata.resourceVersion);
    });

    it('patch without --type (strategic) is refused with 415', async () => {
      audit.expect({
        method: 'PATCH',
        path: widgetPath('w1'),
        code: 415,
        why: 'no SMP for CRs',
        required: true,
      });
      const r = await run('patch', 'widget', 'w1', '-p', '{"spec":{"color":"green"}}');
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        // kubectl's patch command wraps a 415 with the patch type and the GVK.
        `error: application/strategic-merge-patch+json is not supported by ${WIDGET_GROUP}/v1, Kind=Widget: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n`,
      );
    });

    it('describe widget and explain widgets.spec', async () => {
      const out = await kc('describe', 'widget', 'w1');
      assert.match(out, /^Name: +w1$/m);
      assert.match(out, new RegExp(`^Namespace: +${ns}$`, 'm'));
      assert.match(out, new RegExp(`^API Version: +${WIDGET_GROUP}/v1$`, 'm'));
      assert.match(out, /^Kind: +Widget$/m);
      assert.match(out, /^Spec:\n(?: {2}.*\n)* {2}Size: +small$/m);
      assert.match(out, /^Status:\n(?: {2}.*\n)* {2}Phase: +Ready$/m);
      assert.match(out, /^Events: +<none>$/m);

      const explained = await s.k().ok(['explain', 'widgets.spec']);
      const l = lines(explained);
      assert.deepEqual(l.slice(0, 4), [
        `GROUP:      ${WIDGET_GROUP}`,
        'KIND:       Widget',
        'VERSION:    v1',
        'FIELD: spec <Object>',
      ]);
      assert.ok(l.includes('    The desired shape of the widget.'), explained);
      assert.match(explained, /\n {2}size\s+<string> -required-\n/);
      assert.match(explained, /\n {2}replicas\s+<integer>\n/);
    });

    it('deleting the CRD removes its custom resources and the resource type', async () => {
      audit.expect(
        waitsForGone(CRD_PATH),
        readsMissing(widgets, 'the custom resources are gone with the CRD'),
        // A kubectl with a stale discovery cache may still ask for the group.
        {
          method: 'GET',
          path: new RegExp(`^/apis/${WIDGET_GROUP}(/v1)?$`),
          code: 404,
          why: 'stale discovery',
        },
      );
      assert.equal(
        await s.k().ok(['delete', 'crd', WIDGET_CRD, '--timeout=60s']),
        `customresourcedefinition.apiextensions.k8s.io "${WIDGET_CRD}" deleted\n`,
      );
      const raw = await s.k().run(['get', '--raw', widgets]);
      assert.equal(raw.code, 1, raw.stdout);
      assert.match(raw.stderr, /^Error from server \(NotFound\)/);
      assert.equal(
        await s.k().ok(['api-resources', `--api-group=${WIDGET_GROUP}`, '-o', 'name']),
        '',
      );
      const r = await run('get', 'widgets');
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'error: the server doesn\'t have a resource type "widgets"\n');
    });
  });
}
