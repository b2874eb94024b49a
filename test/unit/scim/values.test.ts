import { expect } from 'chai';
import { cloneJson } from '../../../src/scim/values.js';

describe('cloneJson', () => {
  it('copies every level, so changing the copy leaves the original as it was', () => {
    const original = {
      userName: 'a@x',
      active: true,
      n: 3,
      none: null,
      name: { givenName: 'A' },
      emails: [{ value: 'a@x', primary: true }],
    };
    const copy = cloneJson(original);
    expect(copy).to.deep.equal(original);
    copy.name.givenName = 'B';
    copy.emails[0]!.value = 'b@x';
    copy.emails.push({ value: 'c@x', primary: false });
    expect(original).to.deep.equal({
      userName: 'a@x',
      active: true,
      n: 3,
      none: null,
      name: { givenName: 'A' },
      emails: [{ value: 'a@x', primary: true }],
    });
  });

  it('returns scalars as they are', () => {
    expect(cloneJson('x')).to.equal('x');
    expect(cloneJson(null)).to.equal(null);
    expect(cloneJson(0)).to.equal(0);
  });

  it('copies a "__proto__" key as data, never as the prototype', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    const copy = cloneJson(parsed);
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).to.equal(undefined);
    expect(Object.keys(copy)).to.deep.equal(['__proto__', 'a']);
    expect(JSON.stringify(copy)).to.equal('{"__proto__":{"polluted":true},"a":1}');
  });
});
