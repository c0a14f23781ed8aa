/**
 * The label-selector string grammar (`labels.Parse` upstream): a lexer that splits on
 * whitespace and the operator characters `= ! ( ) , > <`, and a recursive-descent parser over
 * the scanned tokens. The structure follows upstream's closely on purpose: several error
 * texts (and a few odd acceptances, such as `x in (a,)`) fall out of that exact structure.
 *
 * @module
 */
import { fieldErrorText } from '../field-error.js';
import {
  BINARY_OPERATORS,
  type LabelOperator,
  type LabelRequirement,
  LabelSelectorParseError,
  labelKeyError,
  newRequirement,
} from './requirement.js';

type TokenKind =
  | 'error'
  | 'end'
  | ')'
  | ','
  | '!'
  | '=='
  | '='
  | '>'
  | 'identifier'
  | 'in'
  | '<'
  | '!='
  | 'notin'
  | '(';

interface Token {
  readonly kind: TokenKind;
  readonly literal: string;
}

const KEYWORDS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  [')', ')'],
  [',', ','],
  ['!', '!'],
  ['==', '=='],
  ['=', '='],
  ['>', '>'],
  ['in', 'in'],
  ['<', '<'],
  ['!=', '!='],
  ['notin', 'notin'],
  ['(', '('],
]);

/** Upstream reads bytes and uses 0 as "end of input"; a NUL in the input behaves the same. */
const EOF = '\0';

function isWhitespace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
}

function isSpecialSymbol(ch: string): boolean {
  return '=!(),><'.includes(ch) && ch.length === 1;
}

class Lexer {
  readonly #s: string;
  #pos = 0;
  constructor(s: string) {
    this.#s = s;
  }

  #read(): string {
    if (this.#pos >= this.#s.length) return EOF;
    const ch = this.#s[this.#pos] ?? EOF;
    this.#pos++;
    return ch;
  }

  #unread(): void {
    this.#pos--;
  }

  #scanIdOrKeyword(): Token {
    let buffer = '';
    for (;;) {
      const ch = this.#read();
      if (ch === EOF) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        this.#unread();
        break;
      }
      buffer += ch;
    }
    return { kind: KEYWORDS.get(buffer) ?? 'identifier', literal: buffer };
  }

  /** Longest run of operator characters that still forms a known token (`!=`, `==`, …). */
  #scanSpecialSymbol(): Token {
    let last: Token | undefined;
    let buffer = '';
    for (;;) {
      const ch = this.#read();
      if (ch === EOF) break;
      if (!isSpecialSymbol(ch)) {
        this.#unread();
        break;
      }
      buffer += ch;
      const kind = KEYWORDS.get(buffer);
      if (kind !== undefined) {
        last = { kind, literal: buffer };
      } else if (last !== undefined) {
        this.#unread();
        break;
      }
    }
    return last ?? { kind: 'error', literal: `error expected: keyword found '${buffer}'` };
  }

  lex(): Token {
    let ch = this.#read();
    while (isWhitespace(ch)) ch = this.#read();
    if (ch === EOF) return { kind: 'end', literal: '' };
    this.#unread();
    return isSpecialSymbol(ch) ? this.#scanSpecialSymbol() : this.#scanIdOrKeyword();
  }
}

/** In a value position the keywords `in` and `notin` are ordinary identifiers. */
type Context = 'keyAndOperator' | 'values';

const OPERATOR_OF: Partial<Record<TokenKind, LabelOperator>> = {
  in: 'in',
  '=': '=',
  '==': '==',
  '>': 'gt',
  '<': 'lt',
  notin: 'notin',
  '!=': '!=',
};

function fail(message: string): never {
  throw new LabelSelectorParseError(message);
}

class Parser {
  readonly #items: Token[] = [];
  #position = 0;

  constructor(text: string) {
    const lexer = new Lexer(text);
    for (;;) {
      const token = lexer.lex();
      this.#items.push(token);
      if (token.kind === 'end') break;
    }
  }

  #view(token: Token | undefined, context: Context): Token {
    const t = token ?? { kind: 'end', literal: '' };
    if (context === 'values' && (t.kind === 'in' || t.kind === 'notin')) {
      return { kind: 'identifier', literal: t.literal };
    }
    return t;
  }

  #lookahead(context: Context): Token {
    return this.#view(this.#items[this.#position], context);
  }

  #consume(context: Context): Token {
    const token = this.#items[this.#position];
    this.#position++;
    return this.#view(token, context);
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { kind, literal } = this.#lookahead('values');
      if (kind === 'end') return requirements;
      if (kind !== 'identifier' && kind !== '!') {
        fail(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.#requirementOrFail());
      const next = this.#consume('values');
      if (next.kind === 'end') return requirements;
      if (next.kind !== ',') fail(`found '${next.literal}', expected: ',' or 'end of string'`);
      const after = this.#lookahead('values');
      if (after.kind !== 'identifier' && after.kind !== '!') {
        fail(`found '${after.literal}', expected: identifier after ','`);
      }
    }
  }

  #requirementOrFail(): LabelRequirement {
    try {
      return this.#requirement();
    } catch (e) {
      if (e instanceof LabelSelectorParseError) {
        fail(`unable to parse requirement: ${e.message}`);
      }
      throw e;
    }
  }

  #requirement(): LabelRequirement {
    const { key, operator } = this.#keyAndInferredOperator();
    if (operator !== undefined) return newRequirement(key, operator, []);
    const op = this.#operator();
    const values = op === 'in' || op === 'notin' ? this.#setValues() : this.#exactValue();
    // Upstream collects values in a set and hands over its sorted list.
    return newRequirement(key, op, [...new Set(values)].sort());
  }

  /** `[!]KEY`; a key followed by `,` or the end implies `exists`. */
  #keyAndInferredOperator(): { key: string; operator: LabelOperator | undefined } {
    let operator: LabelOperator | undefined;
    let token = this.#consume('values');
    if (token.kind === '!') {
      operator = '!';
      token = this.#consume('values');
    }
    if (token.kind !== 'identifier') fail(`found '${token.literal}', expected: identifier`);
    const keyErr = labelKeyError(token.literal);
    if (keyErr !== undefined) fail(fieldErrorText(keyErr));
    const next = this.#lookahead('values').kind;
    if ((next === 'end' || next === ',') && operator === undefined) operator = 'exists';
    return { key: token.literal, operator };
  }

  #operator(): LabelOperator {
    const { kind, literal } = this.#consume('keyAndOperator');
    const op = OPERATOR_OF[kind];
    if (op === undefined) fail(`found '${literal}', expected: ${BINARY_OPERATORS.join(', ')}`);
    return op;
  }

  /** `( VALUE? ("," VALUE?)* )`. */
  #setValues(): string[] {
    const open = this.#consume('values');
    if (open.kind !== '(') fail(`found '${open.literal}' expected: '('`);
    const first = this.#lookahead('values');
    if (first.kind === ')') {
      this.#consume('values');
      return [''];
    }
    if (first.kind !== 'identifier' && first.kind !== ',') {
      fail(`found '${first.literal}', expected: ',', ')' or identifier`);
    }
    const values = this.#identifierList();
    // Upstream reports the token that opened the list here, not the offending one.
    if (this.#consume('values').kind !== ')') fail(`found '${first.literal}', expected: ')'`);
    return values;
  }

  /** A comma-separated list of possibly empty identifiers; stops before `)`. */
  #identifierList(): string[] {
    const values: string[] = [];
    for (;;) {
      const token = this.#consume('values');
      if (token.kind === 'identifier') {
        values.push(token.literal);
        const next = this.#lookahead('values');
        if (next.kind === ')') return values;
        if (next.kind !== ',') fail(`found '${next.literal}', expected: ',' or ')'`);
      } else if (token.kind === ',') {
        if (this.#afterComma(values)) return values;
      } else {
        fail(`found '${token.literal}', expected: ',', or identifier`);
      }
    }
  }

  /**
   * Handles the empty values a comma implies (`(,a)`, `(a,)`, `(a,,b)`); true when `)` follows.
   * Upstream collects into a set, so the repeated `''` pushed here collapse later.
   */
  #afterComma(values: string[]): boolean {
    if (values.length === 0) values.push('');
    const next = this.#lookahead('values').kind;
    if (next === ')') {
      values.push('');
      return true;
    }
    if (next === ',') {
      this.#consume('values');
      values.push('');
    }
    return false;
  }

  /** The single value after `=`, `==`, `!=`, `>` or `<`; absent means the empty string. */
  #exactValue(): string[] {
    const next = this.#lookahead('values').kind;
    if (next === 'end' || next === ',') return [''];
    const token = this.#consume('values');
    if (token.kind === 'identifier') return [token.literal];
    return fail(`found '${token.literal}', expected: identifier`);
  }
}

/** Parses a selector string into its requirements, in input order (not yet sorted). */
export function parseRequirements(text: string): LabelRequirement[] {
  return new Parser(text).parse();
}
