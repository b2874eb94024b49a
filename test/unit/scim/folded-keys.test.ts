import { expect } from 'chai';
import { FoldedKeys } from '../../../src/scim/folded-keys.js';
import { findKey } from '../../../src/scim/values.js';

describe('case-insensitive attribute names (FoldedKeys, findKey)', () => {
  it('finds a name in any case, an exact spelling first, as a scan of the keys would', () => {
    const keys = new FoldedKeys();
    const obj = { UserName: 'a', nickName: 'n', NICKNAME: 'N' };
    for (const find of [(name: string) => keys.find(obj, name), (name: string) => findKey(obj, name)]) {
      expect(find('username')).to.equal('UserName');
      expect(find('USERNAME')).to.equal('UserName');
      expect(find('NICKNAME'), 'the exact spelling wins').to.equal('NICKNAME');
      expect(find('nickname'), 'else the first in key order').to.equal('nickName');
      expect(find('title')).to.equal(undefined);
    }
  });

  it('keeps its index current through set, put and remove, two spellings of one name included', () => {
    const keys = new FoldedKeys();
    const obj: Record<string, unknown> = { Title: 'x' };
    expect(keys.find(obj, 'TITLE')).to.equal('Title'); // indexed from here on
    keys.set(obj, 'costCenter', 1);
    expect(keys.find(obj, 'COSTCENTER')).to.equal('costCenter');
    keys.set(obj, 'COSTCENTER', 2);
    expect(obj).to.deep.equal({ Title: 'x', costCenter: 2 }, 'set reuses the spelling held');
    keys.put(obj, 'COSTCENTER', 3);
    expect(obj).to.deep.equal({ Title: 'x', costCenter: 2, COSTCENTER: 3 }, 'put writes exactly the key');
    keys.remove(obj, 'costCenter');
    expect(keys.find(obj, 'costcenter'), 'the other spelling is found once one is removed').to.equal('COSTCENTER');
    keys.set(obj, 'costcenter', undefined);
    expect(keys.find(obj, 'costCenter')).to.equal(undefined);
    expect(keys.get(obj, 'TITLE')).to.equal('x');
    expect(obj).to.deep.equal({ Title: 'x' });
  });

  it('compares a name that is not ASCII with keys of every length (U+0130 lowers to two code units)', () => {
    const obj = { 'i\u0307d': 1 };
    expect(findKey(obj, '\u0130D')).to.equal('i\u0307d');
    expect(new FoldedKeys().find(obj, '\u0130D')).to.equal('i\u0307d');
    expect(findKey({ K: 1 }, '\u212a'), 'the Kelvin sign lowers to k').to.equal('K');
  });
});
