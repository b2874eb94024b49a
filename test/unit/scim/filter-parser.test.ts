import { expect } from 'chai';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseFilter } from '../../../src/scim/filter/index.js';
import { parsePathExpression } from '../../../src/scim/filter/parser.js';
import { ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';
import { expectScimError } from './expect-scim-error.js';

describe('scim filter parser', () => {
  describe('attribute expressions', () => {
    it('parses every comparison operator, case-insensitively', () => {
      for (const op of ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']) {
        expect(parseFilter(`userName ${op.toUpperCase()} "x"`)).to.deep.equal({
          kind: 'compare',
          path: { name: 'userName' },
          op,
          value: 'x',
        });
      }
    });

    it('parses pr', () => {
      expect(parseFilter('title Pr')).to.deep.equal({ kind: 'present', path: { name: 'title' } });
    });

    it('parses sub-attribute paths', () => {
      expect(parseFilter('name.familyName co "O\'Malley"')).to.deep.equal({
        kind: 'compare',
        path: { name: 'name', sub: 'familyName' },
        op: 'co',
        value: "O'Malley",
      });
    });

    it('parses literals: strings with escapes, numbers, true, false, null', () => {
      const value = (text: string) => (parseFilter(`x eq ${text}`) as { value: unknown }).value;
      expect(value('"a\\"b\\\\c\\u00e9\\n"')).to.equal('a"b\\c\u00e9\n');
      expect(value('42')).to.equal(42);
      expect(value('-1.5e2')).to.equal(-150);
      expect(value('true')).to.equal(true);
      expect(value('False')).to.equal(false);
      expect(value('null')).to.equal(null);
    });

    it('accepts brackets and parentheses without surrounding spaces', () => {
      expect(parseFilter('(userName eq "a")')).to.deep.equal(parseFilter('userName eq "a"'));
    });
  });

  describe('URN-qualified paths', () => {
    it('splits the enterprise URN, whose version contains a dot, from the attribute', () => {
      expect(parseFilter(`${ENTERPRISE_USER_SCHEMA}:employeeNumber eq "1"`)).to.deep.equal({
        kind: 'compare',
        path: { uri: ENTERPRISE_USER_SCHEMA, name: 'employeeNumber' },
        op: 'eq',
        value: '1',
      });
    });

    it('matches known URNs case-insensitively and keeps the sub-attribute', () => {
      const node = parseFilter('URN:IETF:params:scim:schemas:core:2.0:user:name.givenName sw "B"');
      expect(node).to.deep.include({ path: { uri: USER_SCHEMA, name: 'name', sub: 'givenName' } });
    });

    it('splits unknown URNs at the last colon', () => {
      const node = parseFilter('urn:example:custom:1.0:User:badge.color eq "red"');
      expect(node).to.deep.include({ path: { uri: 'urn:example:custom:1.0:User', name: 'badge', sub: 'color' } });
    });
  });

  describe('logical expressions', () => {
    it('gives and precedence over or', () => {
      expect(parseFilter('a pr or b pr and c pr')).to.deep.equal({
        kind: 'or',
        children: [
          { kind: 'present', path: { name: 'a' } },
          {
            kind: 'and',
            children: [
              { kind: 'present', path: { name: 'b' } },
              { kind: 'present', path: { name: 'c' } },
            ],
          },
        ],
      });
    });

    it('lets parentheses override precedence', () => {
      const node = parseFilter('(a pr or b pr) and c pr');
      expect(node).to.have.property('kind', 'and');
      expect((node as { children: unknown[] }).children[0]).to.have.property('kind', 'or');
    });

    it('binds not tighter than and', () => {
      expect(parseFilter('not (a pr) and b pr')).to.deep.equal({
        kind: 'and',
        children: [
          { kind: 'not', child: { kind: 'present', path: { name: 'a' } } },
          { kind: 'present', path: { name: 'b' } },
        ],
      });
    });

    it('flattens chains into one n-ary node and reads keywords in any case', () => {
      const node = parseFilter('a pr AND b pr And c pr OR d pr');
      expect(node).to.have.property('kind', 'or');
      expect((node as { children: { children?: unknown[] }[] }).children[0]!.children).to.have.length(3);
    });

    it('still reads "not" as an attribute name when an operator follows it', () => {
      expect(parseFilter('not pr')).to.deep.equal({ kind: 'present', path: { name: 'not' } });
    });
  });

  describe('value filters', () => {
    it('parses a complex value filter', () => {
      expect(parseFilter('emails[type eq "work" and value co "@example.com"]')).to.deep.equal({
        kind: 'valuePath',
        path: { name: 'emails' },
        filter: {
          kind: 'and',
          children: [
            { kind: 'compare', path: { name: 'type' }, op: 'eq', value: 'work' },
            { kind: 'compare', path: { name: 'value' }, op: 'co', value: '@example.com' },
          ],
        },
      });
    });

    it('parses the RFC example combining two value filters with or', () => {
      const node = parseFilter(
        'emails[type eq "work" and value co "@example.com"] or ims[type eq "xmpp" and value co "@foo.com"]',
      );
      expect(node).to.have.property('kind', 'or');
      expect((node as { children: { kind: string }[] }).children.map((c) => c.kind)).to.deep.equal([
        'valuePath',
        'valuePath',
      ]);
    });

    it("parses Entra's filtered path with a sub-attribute as a comparison", () => {
      expect(parseFilter('emails[type eq "work"].value eq "a@b.c"')).to.deep.equal({
        kind: 'compare',
        path: {
          name: 'emails',
          sub: 'value',
          filter: { kind: 'compare', path: { name: 'type' }, op: 'eq', value: 'work' },
        },
        op: 'eq',
        value: 'a@b.c',
      });
    });

    it('allows not and parentheses inside the brackets', () => {
      const node = parseFilter('emails[not (type eq "home")]');
      expect(node).to.deep.include({ kind: 'valuePath' });
      expect((node as { filter: { kind: string } }).filter.kind).to.equal('not');
    });
  });

  describe('errors', () => {
    const malformed = [
      '',
      'userName',
      'userName eq',
      'userName xx "a"',
      'userName eq "unterminated',
      'userName eq "bad \\x escape"',
      '(userName eq "a"',
      'userName eq "a")',
      'userName eq "a" and',
      'emails[type eq "work"',
      'emails[type eq "work"] eq',
      'emails[emails[type eq "a"]]',
      'emails[name.givenName eq "a"]',
      'name.givenName[x eq "y"]',
      'a.b.c eq "x"',
      'userName eq bare',
      'userName eq 12abc',
      'userName eq "a" # comment',
      'emails[type eq "work"].',
    ];
    for (const text of malformed) {
      it(`rejects ${JSON.stringify(text)} with 400 invalidFilter`, () => {
        expectScimError(() => parseFilter(text), 'invalidFilter');
      });
    }

    it('says where the problem is', () => {
      const error = expectScimError(() => parseFilter('userName eq "a" and foo zz "b"'), 'invalidFilter');
      expect(error.detail)
        .to.match(/position 25/)
        .and.match(/"zz"/);
    });

    it('caps the filter length', () => {
      const long = `userName eq "${'a'.repeat(MAX_FILTER_LENGTH)}"`;
      expect(expectScimError(() => parseFilter(long), 'invalidFilter').detail).to.match(/longer than/);
    });

    it('caps the nesting depth', () => {
      const deep = `${'('.repeat(MAX_FILTER_DEPTH + 1)}a pr${')'.repeat(MAX_FILTER_DEPTH + 1)}`;
      expect(expectScimError(() => parseFilter(deep), 'invalidFilter').detail).to.match(/nested/);
      const notChain = `${'not '.repeat(MAX_FILTER_DEPTH + 1)}(a pr)`;
      expectScimError(() => parseFilter(notChain), 'invalidFilter');
    });

    it('accepts nesting up to the cap', () => {
      const ok = `${'('.repeat(MAX_FILTER_DEPTH)}a pr${')'.repeat(MAX_FILTER_DEPTH)}`;
      expect(parseFilter(ok)).to.deep.equal({ kind: 'present', path: { name: 'a' } });
    });
  });

  describe('PATCH paths', () => {
    // A plain path (one word) is split without the parser; a leading space sends the same text through the
    // parser, so each plain path must come out as that parse does, or fail as it does.
    const viaParser = (text: string) => parsePathExpression(` ${text}`);
    const outcome = (parse: () => unknown) => {
      try {
        return { parsed: parse() };
      } catch (err) {
        return { failed: (err as { status?: number; scimType?: string }).scimType };
      }
    };
    const plain = [
      'active',
      'userName',
      'name.givenName',
      'NAME.GIVENNAME',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value',
      'URN:IETF:PARAMS:SCIM:SCHEMAS:CORE:2.0:USER:emails',
      'urn:example:custom:2.0:Thing:costCenter',
      'urn:example:custom:field',
      'x-custom_field$1',
      '$ref',
      '_under',
      'a.b.c',
      'a..b',
      'a.',
      'a:b',
      'a-',
      'members',
      '__proto__',
      'constructor.prototype',
      'urn:ietf:params:scim:schemas:core:2.0:User:',
      'true',
      'not',
    ];
    for (const text of plain) {
      it(`reads ${JSON.stringify(text)} as the parser does`, () => {
        expect(outcome(() => parsePathExpression(text))).to.deep.equal(outcome(() => viaParser(text)));
      });
    }

    it('still sends every other path through the parser (filters, sub-attributes after them, errors)', () => {
      expect(parsePathExpression('emails[type eq "work"].value')).to.deep.equal({
        name: 'emails',
        sub: 'value',
        filter: { kind: 'compare', path: { name: 'type' }, op: 'eq', value: 'work' },
      });
      for (const text of ['.value', '1abc', 'a b', 'emails[', '', `a${'b'.repeat(MAX_FILTER_LENGTH)}`]) {
        expectScimError(() => parsePathExpression(text), 'invalidPath');
      }
    });
  });
});
