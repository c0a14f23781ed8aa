/**
 * The commands a simulated container has (busybox-like, a small set): `echo`, `printf`
 * (`%s`, `%d`, `\n`), `cat`, `ls`, `pwd`, `cd`, `env`, `printenv`, `hostname`, `date`,
 * `true`, `false`, `exit`, `sleep` (on the cluster clock), `test`/`[`, `mkdir`, `rm`,
 * `touch`, `tar` (what `kubectl cp` runs), `tail`, `head`, `wc`, `whoami`, `id`, `uname`.
 * Their output follows busybox's where it matters to a reader (error texts, `ls -l` is not
 * attempted).
 *
 * @module
 */
import { FsError, type MemFs, resolvePath } from './memfs.js';
import { tar } from './tar-command.js';

/** A container's shell state: its filesystem, environment and working directory. */
export interface ShellState {
  readonly fs: MemFs;
  readonly env: Map<string, string>;
  cwd: string;
  readonly hostname: string;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  lastExit: number;
  /** Set by `exit`: the script stops with this code. */
  exited?: number;
}

export interface CommandIo {
  readonly stdin: () => Promise<Buffer>;
  readonly out: (text: string | Buffer) => void;
  readonly err: (text: string) => void;
}

export type Command = (
  args: readonly string[],
  io: CommandIo,
  state: ShellState,
) => number | Promise<number>;

function flagsAndOperands(args: readonly string[]): { flags: Set<string>; operands: string[] } {
  const flags = new Set<string>();
  const operands: string[] = [];
  for (const a of args) {
    if (a.length > 1 && a.startsWith('-') && operands.length === 0) {
      for (const f of a.slice(1)) flags.add(f);
    } else operands.push(a);
  }
  return { flags, operands };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `date`'s default format in UTC: `Wed Dec  2 02:04:08 UTC 2026`. */
export function dateText(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${time} UTC ${d.getUTCFullYear()}`;
}

function unescapeEcho(s: string): string {
  return s.replace(/\\(n|t|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : '\\'));
}

const echo: Command = (args, io) => {
  const noNewline = args[0] === '-n';
  const text = (noNewline ? args.slice(1) : args).join(' ');
  io.out(noNewline ? text : `${text}\n`);
  return 0;
};

const printf: Command = (args, io) => {
  const [format = '', ...rest] = args;
  let i = 0;
  const text = unescapeEcho(format).replace(/%([sd%])/g, (_, c: string) =>
    c === '%' ? '%' : (rest[i++] ?? (c === 'd' ? '0' : '')),
  );
  io.out(text);
  return 0;
};

const cat: Command = async (args, io, state) => {
  if (args.length === 0) {
    io.out(await io.stdin());
    return 0;
  }
  let code = 0;
  for (const a of args) {
    if (a === '-') {
      io.out(await io.stdin());
      continue;
    }
    try {
      io.out(state.fs.readFile(resolvePath(state.cwd, a)));
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      io.err(`cat: can't open '${a}': ${e.message}\n`);
      code = 1;
    }
  }
  return code;
};

const ls: Command = (args, io, state) => {
  const { flags, operands } = flagsAndOperands(args);
  let code = 0;
  const targets = operands.length === 0 ? ['.'] : operands;
  for (const t of targets) {
    const path = resolvePath(state.cwd, t);
    const e = state.fs.get(path);
    if (e === undefined) {
      io.err(`ls: ${t}: No such file or directory\n`);
      code = 1;
      continue;
    }
    if (targets.length > 1 && e.type === 'dir') io.out(`${t}:\n`);
    const names =
      e.type === 'dir'
        ? state.fs.list(path).filter((n) => flags.has('a') || !n.startsWith('.'))
        : [t];
    if (names.length > 0) io.out(`${names.join('\n')}\n`);
  }
  return code;
};

const cd: Command = (args, io, state) => {
  const path = resolvePath(state.cwd, args[0] ?? state.env.get('HOME') ?? '/');
  if (state.fs.get(path)?.type !== 'dir') {
    io.err(`sh: cd: can't cd to ${args[0]}: No such file or directory\n`);
    return 2;
  }
  state.cwd = path;
  return 0;
};

const env: Command = (_args, io, state) => {
  io.out([...state.env].map(([k, v]) => `${k}=${v}\n`).join(''));
  return 0;
};

const printenv: Command = (args, io, state) => {
  if (args.length === 0) return env(args, io, state);
  let code = 0;
  for (const name of args) {
    const v = state.env.get(name);
    if (v === undefined) code = 1;
    else io.out(`${v}\n`);
  }
  return code;
};

/** `test`'s unary file and string operators. */
const UNARY_TESTS: ReadonlyMap<string, (v: string, state: ShellState) => boolean> = new Map([
  ['-d', (v: string, s: ShellState) => s.fs.get(resolvePath(s.cwd, v))?.type === 'dir'],
  ['-f', (v: string, s: ShellState) => s.fs.get(resolvePath(s.cwd, v))?.type === 'file'],
  ['-e', (v: string, s: ShellState) => s.fs.get(resolvePath(s.cwd, v)) !== undefined],
  ['-z', (v: string) => v === ''],
  ['-n', (v: string) => v !== ''],
]);

/** `test` / `[`: true 0, false 1, a syntax it does not know 2. */
function testResult(a: readonly string[], state: ShellState): boolean | undefined {
  if (a.length === 0) return false;
  if (a.length === 1) return a[0] !== '';
  if (a.length === 2 && a[0] === '!') return a[1] === '';
  if (a.length === 2) return UNARY_TESTS.get(a[0] ?? '')?.(a[1] ?? '', state);
  if (a.length === 3 && (a[1] === '=' || a[1] === '==')) return a[0] === a[2];
  if (a.length === 3 && a[1] === '!=') return a[0] !== a[2];
  return undefined;
}

const test: Command = (args, _io, state) => {
  const result = testResult(args[args.length - 1] === ']' ? args.slice(0, -1) : args, state);
  return result === undefined ? 2 : result ? 0 : 1;
};

const mkdir: Command = (args, io, state) => {
  const { flags, operands } = flagsAndOperands(args);
  let code = 0;
  for (const o of operands) {
    try {
      state.fs.mkdir(resolvePath(state.cwd, o), flags.has('p'));
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      io.err(`mkdir: can't create directory '${o}': ${e.message}\n`);
      code = 1;
    }
  }
  return code;
};

const rm: Command = (args, io, state) => {
  const { flags, operands } = flagsAndOperands(args);
  let code = 0;
  for (const o of operands) {
    try {
      state.fs.remove(resolvePath(state.cwd, o), flags.has('r') || flags.has('R'));
    } catch (e) {
      if (!(e instanceof FsError)) throw e;
      if (flags.has('f') && e.code === 'ENOENT') continue;
      io.err(`rm: can't remove '${o}': ${e.message}\n`);
      code = 1;
    }
  }
  return code;
};

const touch: Command = (args, _io, state) => {
  for (const o of args.filter((a) => !a.startsWith('-'))) {
    const path = resolvePath(state.cwd, o);
    state.fs.writeFile(path, Buffer.alloc(0), true);
  }
  return 0;
};

/** `tail -c +N` / `-c+N` (kubectl cp's resume), `-n N` / `-N`; `head -n N` mirrors it. */
function lineCount(
  args: readonly string[],
  fallback: number,
): { lines?: number; fromByte?: number; files: string[] } {
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const bytes =
      /^-c\+?(\d+)$/.exec(a) ?? (a === '-c' ? /^\+?(\d+)$/.exec(args[++i] ?? '') : null);
    if (bytes !== null) return { fromByte: Number(bytes[1]), files };
    if (a === '-n') return { lines: Number(args[++i] ?? fallback), files: args.slice(i + 1) };
    if (/^-\d+$/.test(a)) return { lines: Number(a.slice(1)), files: args.slice(i + 1) };
    files.push(a);
  }
  return { lines: fallback, files };
}

async function inputOf(
  files: readonly string[],
  io: CommandIo,
  state: ShellState,
): Promise<Buffer> {
  if (files.length === 0) return io.stdin();
  return Buffer.concat(files.map((f) => state.fs.readFile(resolvePath(state.cwd, f))));
}

const tail: Command = async (args, io, state) => {
  const { lines, fromByte, files } = lineCount(args, 10);
  const data = await inputOf(files, io, state);
  if (fromByte !== undefined) {
    io.out(data.subarray(Math.max(0, fromByte - 1)));
    return 0;
  }
  const all = data.toString('utf8').split('\n');
  if (all[all.length - 1] === '') all.pop();
  const kept = all.slice(Math.max(0, all.length - (lines ?? 10)));
  io.out(kept.length === 0 ? '' : `${kept.join('\n')}\n`);
  return 0;
};

const head: Command = async (args, io, state) => {
  const { lines, files } = lineCount(args, 10);
  const all = (await inputOf(files, io, state)).toString('utf8').split('\n');
  if (all[all.length - 1] === '') all.pop();
  const kept = all.slice(0, lines ?? 10);
  io.out(kept.length === 0 ? '' : `${kept.join('\n')}\n`);
  return 0;
};

const wc: Command = async (args, io, state) => {
  const { flags, operands } = flagsAndOperands(args);
  const data = await inputOf(operands, io, state);
  const lines = data.toString('utf8').split('\n').length - 1;
  const words = data
    .toString('utf8')
    .split(/\s+/)
    .filter((w) => w !== '').length;
  const shown = flags.has('l')
    ? [lines]
    : flags.has('c')
      ? [data.length]
      : flags.has('w')
        ? [words]
        : [lines, words, data.length];
  io.out(`${shown.join(' ')}\n`);
  return 0;
};

/** A command that prints one fixed-per-state line and succeeds. */
function prints(text: (args: readonly string[], state: ShellState) => string): Command {
  return (args, io, state) => {
    io.out(`${text(args, state)}\n`);
    return 0;
  };
}

export const COMMANDS: ReadonlyMap<string, Command> = new Map<string, Command>([
  ['echo', echo],
  ['printf', printf],
  ['cat', cat],
  ['ls', ls],
  ['pwd', prints((_a, s) => s.cwd)],
  ['cd', cd],
  ['env', env],
  ['printenv', printenv],
  ['hostname', prints((_a, s) => s.hostname)],
  ['date', prints((_a, s) => dateText(s.now()))],
  ['true', () => 0],
  ['false', () => 1],
  [
    'exit',
    (a, _io, s) => {
      s.exited = a[0] === undefined ? s.lastExit : Number(a[0]) & 0xff;
      return s.exited;
    },
  ],
  [
    'sleep',
    async (a, _io, s) => {
      await s.sleep(Number.parseFloat(a[0] ?? '0') * 1000);
      return 0;
    },
  ],
  ['test', test],
  ['[', test],
  ['mkdir', mkdir],
  ['rm', rm],
  ['touch', touch],
  ['tar', tar],
  ['tail', tail],
  ['head', head],
  ['wc', wc],
  ['whoami', prints(() => 'root')],
  ['id', prints(() => 'uid=0(root) gid=0(root) groups=0(root)')],
  [
    'uname',
    prints((a, s) =>
      a.includes('-a') ? `Linux ${s.hostname} 6.1.0-fleetyard #1 SMP x86_64 GNU/Linux` : 'Linux',
    ),
  ],
]);
