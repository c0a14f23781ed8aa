/**
 * `tar` in a simulated container, what `kubectl cp` runs: `tar cf - <path>` to copy out (GNU
 * tar's member names: relative, the leading `/` removed), `tar -xmf - -C <dir>` to copy in;
 * `t` lists; `v` names each member on stderr. Archives only on stdin and stdout (`f -`).
 *
 * @module
 */
import type { Command, CommandIo, ShellState } from './commands.js';
import { resolvePath } from './memfs.js';
import { packTar, type TarEntry, unpackTar } from './tar.js';

interface TarArgs {
  mode?: 'c' | 'x' | 't';
  dir: string;
  verbose: boolean;
  operands: string[];
  /** Set when an archive other than `-` was named. */
  badFile?: boolean;
}

/** Flags with or without a dash (`cf`, `-xmf`), `-C dir`, operands. */
function parseTarArgs(args: readonly string[], cwd: string): TarArgs {
  const t: TarArgs = { dir: cwd, verbose: false, operands: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-C') t.dir = resolvePath(cwd, args[++i] ?? '.');
    else if (i !== 0 && !(a.startsWith('-') && a.length > 1)) t.operands.push(a);
    else i = applyFlags(t, a.replace(/^-/, ''), args, i);
  }
  return t;
}

/** One word of flags; `f` takes the next argument. Returns the index of the last one used. */
function applyFlags(t: TarArgs, flags: string, args: readonly string[], at: number): number {
  let i = at;
  for (const f of flags) {
    if (f === 'c' || f === 'x' || f === 't') t.mode = f;
    else if (f === 'v') t.verbose = true;
    else if (f === 'f' && args[++i] !== '-') t.badFile = true;
  }
  return i;
}

function create(t: TarArgs, io: CommandIo, state: ShellState): number {
  const entries: TarEntry[] = [];
  let code = 0;
  for (const o of t.operands) {
    const root = resolvePath(t.dir, o);
    if (state.fs.get(root) === undefined) {
      io.err(`tar: ${o}: Cannot stat: No such file or directory\n`);
      code = 2;
      continue;
    }
    for (const path of state.fs.walk(root)) {
      const e = state.fs.get(path)!;
      const relative = o.startsWith('/') ? path : path.slice(t.dir === '/' ? 1 : t.dir.length + 1);
      const name = relative.replace(/^\/+/, '') || '.';
      if (t.verbose) io.err(`${name}\n`);
      const data = e.type === 'file' ? { data: e.data } : {};
      entries.push({
        name,
        type: e.type,
        mode: e.mode,
        mtime: Math.floor(e.mtime / 1000),
        ...data,
      });
    }
  }
  io.out(packTar(entries));
  return code;
}

async function extract(t: TarArgs, io: CommandIo, state: ShellState): Promise<number> {
  let entries: TarEntry[];
  try {
    entries = unpackTar(await io.stdin());
  } catch (e) {
    io.err(`${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  for (const e of entries) {
    if (t.mode === 't') {
      io.out(`${e.name}\n`);
      continue;
    }
    if (t.verbose) io.err(`${e.name}\n`);
    const path = resolvePath(t.dir, e.name);
    if (e.type === 'dir') {
      state.fs.mkdir(path, true);
      continue;
    }
    state.fs.mkdir(resolvePath(path, '..'), true);
    state.fs.writeFile(path, e.data ?? Buffer.alloc(0), false, e.mode || 0o644);
  }
  return 0;
}

export const tar: Command = async (args, io, state) => {
  const t = parseTarArgs(args, state.cwd);
  if (t.badFile) {
    io.err('tar: only archives on stdin/stdout (f -) are supported here\n');
    return 2;
  }
  if (t.mode === 'c') return create(t, io, state);
  if (t.mode === 'x' || t.mode === 't') return extract(t, io, state);
  io.err("tar: You must specify one of the '-ctx' options\n");
  return 2;
};
