import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ShellState } from './commands.js';
import { LineEditor } from './line-editor.js';
import { MemFs } from './memfs.js';
import { runCommand, runScript } from './shell.js';
import { packTar, unpackTar } from './tar.js';

const NOW = Date.parse('2026-12-02T02:04:08Z');

function state(): ShellState {
  return {
    fs: new MemFs(() => NOW, { '/etc/hostname': 'web\n' }),
    env: new Map([
      ['HOME', '/root'],
      ['NAME', 'world'],
    ]),
    cwd: '/',
    hostname: 'web',
    now: () => NOW,
    sleep: async () => undefined,
    lastExit: 0,
  };
}

async function run(
  s: ShellState,
  script: string,
  stdin = '',
): Promise<{ out: string; err: string; code: number }> {
  let out = '';
  let err = '';
  const code = await runScript(s, script, {
    stdin: async () => Buffer.from(stdin),
    stdout: (b) => {
      out += b.toString();
    },
    stderr: (b) => {
      err += b.toString();
    },
  });
  return { out, err, code };
}

describe('sh', () => {
  const cases: { script: string; out: string; err?: string; code?: number; stdin?: string }[] = [
    { script: 'echo hi', out: 'hi\n' },
    { script: 'echo -n hi', out: 'hi' },
    { script: 'echo "hello $NAME" \'$NAME\'', out: 'hello world $NAME\n' },
    { script: 'false; echo $?', out: '1\n' },
    { script: 'false && echo no || echo yes', out: 'yes\n' },
    { script: 'echo a > /tmp/f; echo b >> /tmp/f; cat /tmp/f', out: 'a\nb\n' },
    { script: 'cat < /etc/hostname', out: 'web\n' },
    { script: 'printf "%s-%s\\n" a b', out: 'a-b\n' },
    { script: 'hostname; whoami', out: 'web\nroot\n' },
    { script: 'date', out: 'Wed Dec  2 02:04:08 UTC 2026\n' },
    { script: 'cat', out: 'piped', stdin: 'piped' },
    { script: 'echo one; echo two | tail -n 1', out: 'one\ntwo\n' },
    { script: 'mkdir -p /a/b && cd /a/b && pwd && ls /a', out: '/a/b\nb\n' },
    { script: 'test -d /etc && echo dir; [ -f /etc ] || echo notfile', out: 'dir\nnotfile\n' },
    { script: 'exit 7; echo never', out: '', code: 7 },
    { script: 'nosuch arg', out: '', err: 'sh: nosuch: not found\n', code: 127 },
    {
      script: 'cat /missing',
      out: '',
      err: "cat: can't open '/missing': No such file or directory\n",
      code: 1,
    },
    { script: 'echo "open', out: '', err: 'sh: Unterminated quoted string\n', code: 2 },
    { script: 'echo hidden >/dev/null; cat /nope 2>/dev/null || echo ok', out: 'ok\n' },
    {
      script: 'echo x > /no/dir/f',
      out: '',
      err: "sh: can't open '/no/dir/f': No such file or directory\n",
      code: 1,
    },
  ];
  for (const c of cases) {
    it(c.script, async () => {
      const got = await run(state(), c.script, c.stdin);
      assert.equal(got.out, c.out);
      assert.equal(got.err, c.err ?? '');
      assert.equal(got.code, c.code ?? 0);
    });
  }

  it('runs exec argv without a shell: unknown commands are 127', async () => {
    let err = '';
    const io = {
      stdin: async () => Buffer.alloc(0),
      stdout: () => undefined,
      stderr: (b: Buffer) => {
        err += b.toString();
      },
    };
    assert.equal(await runCommand(state(), ['frobnicate'], io), 127);
    assert.equal(err, 'sh: frobnicate: not found\n');
  });
});

describe('tar', () => {
  it('round-trips files and directories, long names included', () => {
    const long = `${'d'.repeat(120)}/file.txt`;
    const entries = [
      { name: 'dir', type: 'dir' as const, mode: 0o755, mtime: 1 },
      {
        name: 'dir/a.txt',
        type: 'file' as const,
        mode: 0o644,
        mtime: 2,
        data: Buffer.from('hello'),
      },
      { name: long, type: 'file' as const, mode: 0o600, mtime: 3, data: Buffer.alloc(1500, 7) },
    ];
    assert.deepEqual(unpackTar(packTar(entries)), entries);
  });

  it('copies into and out of a container as kubectl cp runs it', async () => {
    const s = state();
    const archive = packTar([
      { name: 'x.txt', type: 'file', mode: 0o644, mtime: 1, data: Buffer.from('payload') },
    ]);
    let out = Buffer.alloc(0);
    const io = (stdin: Buffer) => ({
      stdin: async () => stdin,
      stdout: (b: Buffer) => {
        out = Buffer.concat([out, b]);
      },
      stderr: () => undefined,
    });
    assert.equal(await runCommand(s, ['tar', '-xmf', '-', '-C', '/tmp'], io(archive)), 0);
    assert.equal(s.fs.readFile('/tmp/x.txt').toString(), 'payload');
    assert.equal(await runCommand(s, ['tar', 'cf', '-', '/tmp/x.txt'], io(Buffer.alloc(0))), 0);
    const [entry] = unpackTar(out);
    assert.equal(entry?.name, 'tmp/x.txt');
    assert.equal(entry?.data?.toString(), 'payload');
  });
});

describe('LineEditor', () => {
  const cases: { tty: boolean; typed: string; lines: string[]; echo: string }[] = [
    { tty: true, typed: 'ls\r', lines: ['ls'], echo: 'ls\n' },
    { tty: true, typed: 'lx\x7fs\r', lines: ['ls'], echo: 'lx\b \bs\n' },
    { tty: true, typed: 'l\x1b[As\r', lines: ['ls'], echo: 'ls\n' },
    { tty: true, typed: 'oops\x03ls\r', lines: ['', 'ls'], echo: 'oops^C\nls\n' },
    { tty: false, typed: 'echo a\necho b\n', lines: ['echo a', 'echo b'], echo: '' },
  ];
  for (const c of cases) {
    it(JSON.stringify(c.typed), () => {
      let echo = '';
      const editor = new LineEditor(c.tty, (t) => {
        echo += t;
      });
      const lines: string[] = [];
      for (const ch of c.typed) {
        const key = editor.type(ch);
        if (key !== undefined && 'line' in key) lines.push(key.line);
      }
      assert.deepEqual(lines, c.lines);
      assert.equal(echo, c.echo);
    });
  }

  it('^D on an empty line ends the input', () => {
    assert.deepEqual(new LineEditor(true, () => undefined).type('\x04'), { eof: true });
  });
});
