/**
 * The tar archives `kubectl cp` exchanges with a container (`tar cf - <path>` to copy out,
 * `tar -xmf - -C <dir>` to copy in): POSIX ustar, 512-byte blocks, what Go's `archive/tar`
 * (kubectl's side) writes and reads. Reading also takes PAX (`x`) and GNU long-name (`L`)
 * headers for long paths; links and devices are skipped.
 *
 * @module
 */

const BLOCK = 512;

export interface TarEntry {
  /** Relative path, `/`-separated; directories without a trailing slash. */
  readonly name: string;
  readonly type: 'file' | 'dir';
  readonly mode: number;
  /** Seconds since the epoch. */
  readonly mtime: number;
  readonly data?: Buffer;
}

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

function splitName(name: string): { name: string; prefix: string } {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100)
      return { name: rest, prefix };
  }
  throw new Error(`tar: ${name}: file name is too long`);
}

function header(e: TarEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { name, prefix } = splitName(e.type === 'dir' ? `${e.name}/` : e.name);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(e.mode & 0o7777, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(e.type === 'file' ? (e.data?.length ?? 0) : 0, 12), 124, 'ascii');
  h.write(octal(e.mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(e.type === 'dir' ? '5' : '0', 156, 'ascii');
  h.write('ustar\x0000', 257, 'ascii');
  h.write('root', 265, 'ascii');
  h.write('root', 297, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

/** An archive of `entries`, ended by two zero blocks. */
export function packTar(entries: readonly TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e));
    if (e.type === 'file' && e.data !== undefined && e.data.length > 0) {
      parts.push(e.data, Buffer.alloc((BLOCK - (e.data.length % BLOCK)) % BLOCK));
    }
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

function field(h: Buffer, start: number, len: number): string {
  const raw = h.subarray(start, start + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? len : end).toString('utf8');
}

function num(h: Buffer, start: number, len: number): number {
  const text = field(h, start, len).trim();
  return text === '' ? 0 : Number.parseInt(text, 8);
}

/** PAX records: `"<len> key=value\n"`. */
function paxRecords(data: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let pos = 0;
  while (pos < data.length) {
    const space = data.indexOf(0x20, pos);
    if (space < 0) break;
    const len = Number(data.subarray(pos, space).toString('ascii'));
    if (!Number.isInteger(len) || len <= 0) break;
    const record = data.subarray(space + 1, pos + len - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0) out.set(record.slice(0, eq), record.slice(eq + 1));
    pos += len;
  }
  return out;
}

/** The checksum a header must carry: its bytes summed with the checksum field as spaces. */
function checksumOf(h: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (h[i] ?? 0);
  return sum;
}

/** A member's entry from its header and data, or undefined for kinds not kept (links, devices). */
function entryOf(h: Buffer, type: string, name: string, data: Buffer): TarEntry | undefined {
  const common = { name: name.replace(/\/+$/, ''), mode: num(h, 100, 8), mtime: num(h, 136, 12) };
  if (type === '5') return { ...common, type: 'dir' };
  if (type === '0' || type === '\0' || type === '7')
    return { ...common, type: 'file', data: Buffer.from(data) };
  return undefined;
}

/** The entries of an archive; throws on a damaged header. */
export function unpackTar(archive: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let pos = 0;
  /** A long name from a PAX (`x`) or GNU (`L`) header, for the member that follows. */
  let longName: string | undefined;
  while (pos + BLOCK <= archive.length) {
    const h = archive.subarray(pos, pos + BLOCK);
    if (h.every((b) => b === 0)) break;
    if (checksumOf(h) !== num(h, 148, 8))
      throw new Error('tar: This does not look like a tar archive');
    const size = num(h, 124, 12);
    const type = String.fromCharCode(h[156] ?? 0);
    const data = archive.subarray(pos + BLOCK, pos + BLOCK + size);
    pos += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x' || type === 'L') {
      longName =
        type === 'x' ? (paxRecords(data).get('path') ?? longName) : field(data, 0, data.length);
      continue;
    }
    if (type === 'g') continue;
    const prefix = field(h, 345, 155);
    const name = longName ?? (prefix === '' ? field(h, 0, 100) : `${prefix}/${field(h, 0, 100)}`);
    longName = undefined;
    const entry = entryOf(h, type, name, data);
    if (entry !== undefined) entries.push(entry);
  }
  return entries;
}
