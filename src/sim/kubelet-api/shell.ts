/**
 * Runs commands in a simulated container: the grammar of `shell-parse.ts`, the built-in
 * commands of `commands.ts`, one in-memory filesystem per container. An unknown command
 * fails as a shell says it (`sh: foo: not found`, exit code 127). Pipelines run one command
 * after the other, each reading all of the previous one's output.
 *
 * @module
 */
import { COMMANDS, type CommandIo, type ShellState } from './commands.js';
import { FsError, resolvePath } from './memfs.js';
import {
  expandWord,
  type ListItem,
  parseScript,
  type Redirect,
  ShellSyntaxError,
  type SimpleCommand,
} from './shell-parse.js';

/** Reads as empty, swallows writes. */
const DEV_NULL = '/dev/null';

/** What a command writes, and how it reads stdin (all of it, on first use). */
export interface RunIo {
  readonly stdin: () => Promise<Buffer>;
  readonly stdout: (chunk: Buffer) => void;
  readonly stderr: (chunk: Buffer) => void;
}

/** Runs one command line given as words (exec's `command`): its exit code. */
export async function runCommand(
  state: ShellState,
  argv: readonly string[],
  io: RunIo,
): Promise<number> {
  return runWords(state, argv, io);
}

/** Runs a script (`sh -c`), returning the last exit code. */
export async function runScript(state: ShellState, script: string, io: RunIo): Promise<number> {
  let items: ListItem[];
  try {
    items = parseScript(script);
  } catch (e) {
    if (!(e instanceof ShellSyntaxError)) throw e;
    io.stderr(Buffer.from(`sh: ${e.message}\n`));
    return 2;
  }
  let code = state.lastExit;
  for (const item of items) {
    if (item.join === '&&' && code !== 0) continue;
    if (item.join === '||' && code === 0) continue;
    code = await runPipeline(state, item.pipeline, io);
    state.lastExit = code;
    if (state.exited !== undefined) return state.exited;
  }
  return code;
}

async function runPipeline(
  state: ShellState,
  pipeline: readonly SimpleCommand[],
  io: RunIo,
): Promise<number> {
  let input = io.stdin;
  let code = 0;
  for (const [i, command] of pipeline.entries()) {
    const last = i === pipeline.length - 1;
    const captured: Buffer[] = [];
    const stdout = last ? io.stdout : (b: Buffer) => captured.push(b);
    code = await runSimple(state, command, { stdin: input, stdout, stderr: io.stderr });
    const piped = Buffer.concat(captured);
    input = async () => piped;
  }
  return code;
}

function lookup(state: ShellState): (name: string) => string {
  return (name) => (name === '?' ? String(state.lastExit) : (state.env.get(name) ?? ''));
}

async function runSimple(state: ShellState, command: SimpleCommand, io: RunIo): Promise<number> {
  const expand = lookup(state);
  const argv = command.words.map((w) => expandWord(w, expand));
  let redirected: RunIo;
  const flushes: (() => void)[] = [];
  try {
    redirected = applyRedirects(state, command.redirects, io, flushes);
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
    const target =
      command.redirects.map((r) => expandWord(r.target, expand)).find((t) => t !== '') ?? '';
    io.stderr(Buffer.from(`sh: can't open '${target}': ${e.message}\n`));
    return 1;
  }
  const code = await runWords(state, argv, redirected);
  try {
    for (const flush of flushes) flush();
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
    io.stderr(Buffer.from(`sh: write error: ${e.message}\n`));
    return 1;
  }
  return code;
}

function applyRedirects(
  state: ShellState,
  redirects: readonly Redirect[],
  io: RunIo,
  flushes: (() => void)[],
): RunIo {
  let { stdin, stdout, stderr } = io;
  for (const r of redirects) {
    if (r.op === '>&1') {
      stderr = stdout;
      continue;
    }
    const path = resolvePath(state.cwd, expandWord(r.target, lookup(state)));
    if (path === DEV_NULL) {
      if (r.op === '<') stdin = async () => Buffer.alloc(0);
      else if (r.fd === 2) stderr = () => undefined;
      else stdout = () => undefined;
      continue;
    }
    if (r.op === '<') {
      const data = state.fs.readFile(path);
      stdin = async () => data;
      continue;
    }
    // Created (or truncated) before the command runs, as a shell does; filled after it.
    if (r.op === '>') state.fs.writeFile(path, Buffer.alloc(0));
    else state.fs.writeFile(path, Buffer.alloc(0), true);
    const chunks: Buffer[] = [];
    flushes.push(() => state.fs.writeFile(path, Buffer.concat(chunks), true));
    const sink = (b: Buffer) => chunks.push(b);
    if (r.fd === 2) stderr = sink;
    else stdout = sink;
  }
  return { stdin, stdout, stderr };
}

async function runWords(state: ShellState, argv: readonly string[], io: RunIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) return 0;
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(name);
  if (assignment !== null && args.length === 0) {
    state.env.set(assignment[1]!, assignment[2]!);
    return 0;
  }
  if (name === 'sh' || name === 'bash' || name === '/bin/sh' || name === '/bin/bash') {
    const c = args.indexOf('-c');
    if (c >= 0) {
      const script = args[c + 1];
      if (script === undefined) {
        io.stderr(Buffer.from('sh: -c requires an argument\n'));
        return 2;
      }
      return runScript(state, script, io);
    }
    const script = (await io.stdin()).toString('utf8');
    return runScript(state, script, io);
  }
  const command = COMMANDS.get(name.replace(/^\/(usr\/)?(s?bin)\//, ''));
  if (command === undefined) {
    io.stderr(Buffer.from(`sh: ${name}: not found\n`));
    return 127;
  }
  const cio: CommandIo = {
    stdin: io.stdin,
    out: (text) => io.stdout(typeof text === 'string' ? Buffer.from(text) : text),
    err: (text) => io.stderr(Buffer.from(text)),
  };
  try {
    return await command(args, cio, state);
  } catch (e) {
    if (!(e instanceof FsError)) throw e;
    io.stderr(Buffer.from(`${name}: ${e.message}\n`));
    return 1;
  }
}
