/**
 * Tokenizer for SCIM filters and PATCH paths. Attribute paths, operators and keywords are all
 * "words" (`urn:...:2.0:User:name.givenName`, `eq`, `and`, `.value` after `]`); the parser tells
 * them apart by position, since any of them could also be an attribute name.
 */
import { isWellFormed } from '../../core/json-field-walk.js';

export type Token =
  | { type: 'word'; text: string; pos: number }
  | { type: 'string'; value: string; pos: number }
  | { type: 'number'; value: number; pos: number }
  | { type: '(' | ')' | '[' | ']' | 'eof'; pos: number };

export type SyntaxErrorFactory = (detail: string) => Error;

const WORD = /[A-Za-z0-9_$:.\-]/;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// Whole tokens by sticky patterns: a test per character cost more than the rest of a lookup's parse.
const SPACES = /\s+/y;
const WORD_TOKEN = /[A-Za-z_$.][A-Za-z0-9_$:.\-]*/y;

/** The length of `sticky`'s match at `i` (0 when none). */
function matchAt(sticky: RegExp, text: string, i: number): number {
  sticky.lastIndex = i;
  return sticky.test(text) ? sticky.lastIndex - i : 0;
}

export function tokenize(text: string, fail: SyntaxErrorFactory): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const spaces = matchAt(SPACES, text, i);
    if (spaces > 0) {
      i += spaces;
    } else if (ch === '(' || ch === ')' || ch === '[' || ch === ']') {
      tokens.push({ type: ch, pos: i });
      i++;
    } else if (ch === '"') {
      const end = stringEnd(text, i);
      if (end < 0) throw fail(`unterminated string starting at position ${i + 1}`);
      tokens.push({ type: 'string', value: decodeString(text.slice(i, end + 1), i, fail), pos: i });
      i = end + 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m || (i + m[0].length < text.length && WORD.test(text[i + m[0].length]!))) {
        throw fail(`invalid number at position ${i + 1}`);
      }
      tokens.push({ type: 'number', value: Number(m[0]), pos: i });
      i += m[0].length;
    } else {
      const length = matchAt(WORD_TOKEN, text, i);
      if (length === 0) throw fail(`unexpected character '${ch}' at position ${i + 1}`);
      tokens.push({ type: 'word', text: text.slice(i, i + length), pos: i });
      i += length;
    }
  }
  tokens.push({ type: 'eof', pos: text.length });
  return tokens;
}

/** Index of the quote closing the string opened at `start`, skipping escaped characters. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

/** compValue strings are JSON strings (RFC 7644 §3.4.2.2), so JSON's own decoder applies. */
function decodeString(literal: string, pos: number, fail: SyntaxErrorFactory): string {
  let text: string;
  try {
    text = JSON.parse(literal) as string;
  } catch {
    throw fail(`invalid string literal at position ${pos + 1}`);
  }
  // `\ud800` would match U+FFFD on Redis (stored as UTF-8) and nothing in memory: the stores must agree.
  if (!isWellFormed(text))
    throw fail(`the string at position ${pos + 1} is not valid Unicode (a lone UTF-16 surrogate)`);
  return text;
}
