/**
 * Parser for the Kubernetes JSONPath dialect (upstream `client-go/util/jsonpath/parser.go`):
 * text with `{…}` actions; inside an action `.field`, `..` (recursive descent), `*`,
 * `[n]`, `[start:end:step]`, `[a,b]` unions, `['key']`, `[?(@.x == "y")]` filters,
 * quoted strings, numbers, `true`/`false` and the `range`/`end` keywords.
 *
 * Quirks kept on purpose because kubectl users rely on them: `['a.b']` is the path `.a.b`
 * (the dots split it; a dotted key is written `.a\.b`), a field name runs until a
 * terminator (`web/html` and `k8s-app` are single names), and error texts are upstream's.
 *
 * @module
 */
import {
  JsonPathError,
  type JsonPathNode,
  type ListNode,
  newList,
  type SliceParam,
} from './nodes.js';
import { unquoteExtend } from './unquote.js';

const EOF = -1;
const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;
const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

/** Parses a whole template (`text {.path} more text`). */
export function parseTemplate(text: string): ListNode {
  return new Parser(text).parse();
}

/** Upstream `parseAction`: parses `{text}` and returns the action's own list. */
function parseAction(text: string): ListNode {
  const root = parseTemplate(`{${text}}`);
  const first = root.nodes[0];
  if (first === undefined || first.type !== 'list') throw new JsonPathError('invalid action');
  return first;
}

function isTerminator(r: number): boolean {
  return (
    r === EOF ||
    r === 0x20 || // space
    r === 0x09 ||
    r === 0x0d ||
    r === 0x0a ||
    '.,[]$@{}'.includes(String.fromCodePoint(r))
  );
}

function isDigit(r: number): boolean {
  return r >= 0 && /\p{Nd}/u.test(String.fromCodePoint(r));
}

function isAlphaNumeric(r: number): boolean {
  return r === 0x5f || (r >= 0 && /[\p{L}\p{Nd}]/u.test(String.fromCodePoint(r)));
}

/** Go's `%#U`: `U+007B '{'` (the character only when printable). */
function goRune(r: number): string {
  const hex = `U+${r.toString(16).toUpperCase().padStart(4, '0')}`;
  const printable = r >= 0x20 && r !== 0x7f && !/\p{C}/u.test(String.fromCodePoint(r));
  return printable ? `${hex} '${String.fromCodePoint(r)}'` : hex;
}

class Parser {
  private readonly root = newList();
  private pos = 0;
  private start = 0;
  private width = 0;

  private readonly input: string;

  constructor(input: string) {
    this.input = input;
  }

  parse(): ListNode {
    this.parseText();
    return this.root;
  }

  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos) ?? EOF;
    this.width = r > 0xffff ? 2 : 1;
    this.pos += this.width;
    return r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private startsWith(prefix: string): boolean {
    return this.input.startsWith(prefix, this.pos);
  }

  /** Text up to the next `{`, then the action; repeats until the end of input. */
  private parseText(): void {
    for (;;) {
      if (this.startsWith('{')) {
        if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
        this.pos += 1;
        this.consumeText();
        const action = newList();
        this.root.nodes.push(action);
        this.parseInsideAction(action);
        continue;
      }
      if (this.next() === EOF) break;
    }
    if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
  }

  /** Parses steps until the closing `}` (which it consumes). */
  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      if (this.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return;
      }
      if (this.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (this.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      this.parseStep(cur);
    }
  }

  private parseStep(cur: ListNode): void {
    const r = this.next();
    if (r === EOF || r === 0x0d || r === 0x0a) throw new JsonPathError('unclosed action');
    if (r === 0x20 || r === 0x40 /* @ */ || r === 0x24 /* $ */) {
      this.consumeText();
    } else if (r === 0x5b /* [ */) {
      this.parseArray(cur);
    } else if (r === 0x22 || r === 0x27) {
      this.parseQuote(cur, r);
    } else if (r === 0x2e /* . */) {
      this.parseField(cur);
    } else if (r === 0x2b || r === 0x2d || isDigit(r)) {
      this.backup();
      this.parseNumber(cur);
    } else if (isAlphaNumeric(r)) {
      this.backup();
      this.parseIdentifier(cur);
    } else {
      throw new JsonPathError(`unrecognized character in action: ${goRune(r)}`);
    }
  }

  private parseIdentifier(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === 'true' || value === 'false')
      cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') {
      throw new JsonPathError('invalid multiple recursive descent');
    }
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const first = this.peek();
    if (first === 0x2b || first === 0x2d) this.next();
    for (;;) {
      const r = this.next();
      if (r !== 0x2e && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (INTEGER.test(value) && Number.isSafeInteger(Number(value))) {
      cur.nodes.push({ type: 'int', value: Number(value) });
    } else if (FLOAT.test(value)) {
      cur.nodes.push({ type: 'float', value: Number(value) });
    } else {
      throw new JsonPathError(`cannot parse number ${value}`);
    }
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated array');
      if (r === 0x5d) break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';
    const parts = text.split(',');
    if (parts.length > 1) {
      const nodes = parts.map((s) => parseAction(`[${s.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ type: 'union', nodes });
      return;
    }
    const key = DICT_KEY.exec(text);
    if (key !== null) {
      cur.nodes.push(...parseAction(`.${key[1] ?? ''}`).nodes);
      return;
    }
    cur.nodes.push({ type: 'array', params: sliceParams(text) });
  }

  /** Scans to the `)` closing a filter, skipping one quoted string (upstream's rule). */
  private scanFilterBody(): void {
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated filter');
      if ((r === 0x22 || r === 0x27) && !begin) {
        begin = true;
        pair = r;
      } else if (r === pair && this.input[this.pos - 2] !== '\\') {
        end = true;
      } else if (r === 0x29 /* ) */ && begin === end) {
        return;
      }
    }
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    this.scanFilterBody();
    if (this.next() !== 0x5d) throw new JsonPathError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const m = FILTER.exec(text);
    if (m === null) {
      cur.nodes.push({
        type: 'filter',
        left: parseAction(text),
        right: newList(),
        operator: 'exists',
      });
    } else {
      cur.nodes.push({
        type: 'filter',
        left: parseAction(m[1] ?? ''),
        right: parseAction(m[3] ?? ''),
        operator: m[2] ?? '',
      });
    }
  }

  private parseQuote(cur: ListNode, endQuote: number): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated quoted string');
      if (r === endQuote && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    const text = unquoteExtend(value);
    if (text === undefined) throw new JsonPathError(`unquote string ${value} error invalid syntax`);
    cur.nodes.push({ type: 'text', text });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance()) {
      // scan to the next unescaped terminator
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }

  private advance(): boolean {
    const r = this.next();
    if (r === 0x5c /* \ */) {
      this.next();
    } else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

const UNKNOWN: SliceParam = { known: false, value: 0, derived: false };

/** One slice bound as written (`-2`, `:3`, `:`); `undefined` when absent. */
function sliceParam(raw: string, isBound: boolean): SliceParam {
  const text = isBound ? raw.slice(1) : raw;
  if (isBound && text === '') return UNKNOWN;
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new JsonPathError(`array index ${text} is not a number`);
  }
  return { known: true, value: Number(text), derived: false };
}

/** Upstream's slice parameters: `[n]` is `[n:n+1]` with a derived end, `[]` is `[0:1]`. */
function sliceParams(text: string): [SliceParam, SliceParam, SliceParam] {
  const m = SLICE.exec(text);
  if (m === null) throw new JsonPathError(`invalid array index ${text}`);
  const [start = '', end = '', step = ''] = m.slice(1).map((x) => x ?? '');
  const first = start === '' ? UNKNOWN : sliceParam(start, false);
  const second =
    end === '' ? { known: true, value: first.value + 1, derived: true } : sliceParam(end, true);
  const third = step === '' ? UNKNOWN : sliceParam(step, true);
  return [first, second, third];
}

export type { JsonPathNode };
