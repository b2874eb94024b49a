/**
 * Recursive-descent parser for the full RFC 7644 §3.4.2.2 filter grammar, plus the PATCH path
 * grammar of §3.5.2 (`attrPath / valuePath [subAttr]`), which shares its pieces.
 *
 * Precedence is `not` > `and` > `or`; keywords and operators are case-insensitive. Beyond the
 * RFC we accept `not` without parentheses and Entra's `emails[type eq "work"].value eq "x"`.
 */
import { MAX_FILTER_LENGTH } from '../../core/input-limits.js';
import { ScimError, type ScimType } from '../errors.js';
import { splitAttrPath } from '../attribute-paths.js';
import { COMPARE_OPS, type CompareOp, type CompValue, type FilterNode, type FilterPath } from './ast.js';
import { type Token, tokenize } from './lexer.js';

/** Bounds the work one request can cause; real IdP filters are far smaller. */
export { MAX_FILTER_LENGTH } from '../../core/input-limits.js';
export const MAX_FILTER_DEPTH = 32;

export function parseFilter(text: string): FilterNode {
  const parser = new Parser(text, 'invalidFilter');
  const node = parser.orExpr(false);
  parser.expectEnd();
  return node;
}

/** One lexer word that is not a `.subAttr` continuation: what nearly every PATCH path and value key is. */
const PLAIN_PATH = /^[A-Za-z_$][A-Za-z0-9_$:.\-]*$/;

/** Parse a PATCH `path`; syntax errors are 400 invalidPath. */
export function parsePathExpression(text: string): FilterPath {
  // A plain attribute path parses to its split parts alone (see `path`); one that does not split goes on to the
  // parser for its error.
  const plain = text.length <= MAX_FILTER_LENGTH && PLAIN_PATH.test(text) ? splitAttrPath(text) : undefined;
  if (plain) return plain;
  const parser = new Parser(text, 'invalidPath');
  const path = parser.path(false);
  parser.expectEnd();
  return path;
}

class Parser {
  private readonly tokens: Token[];
  private index = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly scimType: Extract<ScimType, 'invalidFilter' | 'invalidPath'>,
  ) {
    if (text.length > MAX_FILTER_LENGTH) throw this.error(`longer than ${MAX_FILTER_LENGTH} characters`);
    this.tokens = tokenize(text, (detail) => this.error(detail));
  }

  orExpr(inValueFilter: boolean): FilterNode {
    const children = [this.andExpr(inValueFilter)];
    while (this.atKeyword('or')) {
      this.index++;
      children.push(this.andExpr(inValueFilter));
    }
    return children.length === 1 ? children[0]! : { kind: 'or', children };
  }

  private andExpr(inValueFilter: boolean): FilterNode {
    const children = [this.unary(inValueFilter)];
    while (this.atKeyword('and')) {
      this.index++;
      children.push(this.unary(inValueFilter));
    }
    return children.length === 1 ? children[0]! : { kind: 'and', children };
  }

  private unary(inValueFilter: boolean): FilterNode {
    const token = this.peek();
    // `not pr` / `not eq "x"` would be an attribute called "not"; anything else negates.
    if (this.atKeyword('not') && !this.isOperator(this.peek(1))) {
      this.index++;
      return this.nested(() => ({ kind: 'not', child: this.unary(inValueFilter) }));
    }
    if (token.type === '(') {
      this.index++;
      const node = this.nested(() => this.orExpr(inValueFilter));
      this.expect(')');
      return node;
    }
    return this.attrExpr(inValueFilter);
  }

  private attrExpr(inValueFilter: boolean): FilterNode {
    const path = this.path(inValueFilter);
    const token = this.peek();
    if (this.isOperator(token)) {
      this.index++;
      const op = (token as { text: string }).text.toLowerCase();
      if (op === 'pr') return { kind: 'present', path };
      return { kind: 'compare', path, op: op as CompareOp, value: this.compValue() };
    }
    if (path.filter && path.sub === undefined) {
      const { filter, ...attribute } = path;
      return { kind: 'valuePath', path: attribute, filter };
    }
    throw this.unexpected(token, 'an operator (eq, ne, co, sw, ew, gt, ge, lt, le, pr)');
  }

  /** `attrPath`, or `attrPath "[" valFilter "]" ["." subAttr]`. */
  path(inValueFilter: boolean): FilterPath {
    const token = this.next();
    if (token.type !== 'word' || token.text.startsWith('.')) throw this.unexpected(token, 'an attribute name');
    const parts = splitAttrPath(token.text);
    if (!parts) throw this.error(`"${token.text}" at position ${token.pos + 1} is not a valid attribute path`);
    if (inValueFilter && (parts.uri !== undefined || parts.sub !== undefined)) {
      throw this.error(
        `"${token.text}" at position ${token.pos + 1}: inside [...] only sub-attribute names are allowed`,
      );
    }
    if (this.peek().type !== '[') return parts;
    if (inValueFilter) throw this.error(`nested [...] at position ${this.peek().pos + 1}`);
    if (parts.sub !== undefined) {
      throw this.error(`[...] at position ${this.peek().pos + 1} must follow an attribute, not a sub-attribute`);
    }
    this.index++;
    const filter = this.nested(() => this.orExpr(true));
    const close = this.expect(']');
    const path: FilterPath = { ...parts, filter };
    const after = this.peek();
    if (after.type === 'word' && after.text.startsWith('.') && after.pos === close.pos + 1) {
      this.index++;
      const sub = splitAttrPath(after.text.slice(1));
      if (!sub || sub.uri !== undefined || sub.sub !== undefined) {
        throw this.error(`"${after.text}" at position ${after.pos + 1} is not a valid sub-attribute`);
      }
      path.sub = sub.name;
    }
    return path;
  }

  private compValue(): CompValue {
    const token = this.next();
    if (token.type === 'string' || token.type === 'number') return token.value;
    if (token.type === 'word') {
      const word = token.text.toLowerCase();
      if (word === 'true') return true;
      if (word === 'false') return false;
      if (word === 'null') return null;
    }
    throw this.unexpected(token, 'a value (a quoted string, a number, true, false or null)');
  }

  expectEnd(): void {
    const token = this.peek();
    if (token.type !== 'eof') throw this.unexpected(token, 'end of input');
  }

  private nested<T>(parse: () => T): T {
    if (++this.depth > MAX_FILTER_DEPTH) {
      throw this.error(`nested more than ${MAX_FILTER_DEPTH} levels deep at position ${this.peek().pos + 1}`);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const token = this.peek();
    if (token.type !== 'eof') this.index++;
    return token;
  }

  private expect(type: ')' | ']'): Token {
    const token = this.next();
    if (token.type !== type) throw this.unexpected(token, `'${type}'`);
    return token;
  }

  private atKeyword(keyword: string): boolean {
    const token = this.peek();
    return token.type === 'word' && token.text.toLowerCase() === keyword;
  }

  private isOperator(token: Token): boolean {
    if (token.type !== 'word') return false;
    const word = token.text.toLowerCase();
    return word === 'pr' || COMPARE_OPS.has(word);
  }

  private unexpected(token: Token, expected: string): ScimError {
    const found =
      token.type === 'eof'
        ? 'end of input'
        : token.type === 'word'
          ? `"${token.text}"`
          : token.type === 'string'
            ? JSON.stringify(token.value)
            : token.type === 'number'
              ? String(token.value)
              : `'${token.type}'`;
    return this.error(`expected ${expected} at position ${token.pos + 1} but found ${found}`);
  }

  private error(detail: string): ScimError {
    const what = this.scimType === 'invalidFilter' ? 'filter' : 'path';
    return ScimError.badRequest(`Invalid ${what}: ${detail}`, this.scimType);
  }
}
