import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parse } from 'yaml';
import { toYaml } from './yaml.js';

describe('toYaml', () => {
  it('writes a Kubernetes object the way kubectl does', () => {
    const text = toYaml({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        labels: { app: 'web', 'controller-revision-hash': 'web-7d9' },
        annotations: {},
      },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', args: ['--port', '80'] }] },
      status: { phase: 'Running', ready: true, restartCount: 0, message: 'yes' },
    });
    assert.equal(
      text,
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata:',
        '  name: p',
        '  labels:',
        '    app: web',
        '    controller-revision-hash: web-7d9',
        '  annotations: {}',
        'spec:',
        '  containers:',
        '  - name: c',
        '    image: "nginx:1.27"',
        '    args:',
        '    - "--port"',
        '    - "80"',
        'status:',
        '  phase: Running',
        '  ready: true',
        '  restartCount: 0',
        '  message: "yes"',
        '',
      ].join('\n'),
    );
  });

  it('parses back to the same value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON has no -0; the emitter writes what JSON.stringify would.
        const json: unknown = JSON.parse(JSON.stringify(value));
        assert.deepEqual(parse(toYaml(json)), json);
      }),
      { numRuns: 500 },
    );
  });

  it('parses back multi-line and tricky strings', () => {
    const cases = [
      'a\nb\n',
      'a\nb',
      'line one\n\nline three\n',
      ' lead',
      'trail ',
      'key: value',
      '# not a comment',
      '- item',
      '0x1F',
      'true',
      '~',
      '',
      'a #b',
      'é ü',
      '@at',
      '*star',
      '!tag',
      '{x}',
      '[y]',
    ];
    for (const s of cases) assert.deepEqual(parse(toYaml({ s })), { s }, JSON.stringify(s));
  });
});
