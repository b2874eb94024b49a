import { expect } from 'chai';
import { checkRequestBounds, checkResourceBounds } from '../../../src/scim/bound-checks.js';
import { expectScimError, expectScimRejection } from './expect-scim-error.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `u${i}`);
const op = (path: string | undefined, value: unknown) => ({ op: 'add', ...(path !== undefined && { path }), value });

describe('SCIM input bounds', () => {
  it('accepts a member list of exactly 100,000 values, bare or IdP-shaped, and refuses one more', async () => {
    await checkRequestBounds({ displayName: 'All', members: ids(100_000) });
    await checkRequestBounds({ displayName: 'All', members: ids(20_000).map((value) => ({ value, display: value })) });
    const err = await expectScimRejection(checkRequestBounds({ displayName: 'All', members: ids(100_001) }), 'tooMany');
    expect(err.detail).to.match(/at most 100000 member values/);
  });

  it('adds up member values across the operations of a PATCH, whatever the path form', async () => {
    const half = ids(50_000);
    await checkRequestBounds({ Operations: [op('members', half), op('members', half)] });
    for (const path of ['members', 'Members', 'urn:ietf:params:scim:schemas:core:2.0:Group:members']) {
      await expectScimRejection(
        checkRequestBounds({ Operations: [op(path, half), op('members', [...half, 'one-more'])] }),
        'tooMany',
      );
    }
    await expectScimRejection(
      checkRequestBounds({ Operations: [op(undefined, { members: ids(100_001) })] }),
      'tooMany',
    );
    // A bare Operations array (accepted by the PATCH engine) is bounded the same way.
    await expectScimRejection(checkRequestBounds([op('members', ids(100_001))]), 'tooMany');
    await expectScimRejection(checkRequestBounds(Array.from({ length: 1001 }, () => op('nickName', 'x'))), 'tooMany');
  });

  it('names the attribute an operation targets, not "value"', async () => {
    const values = Array.from({ length: 101 }, (_, i) => ({ value: `${i}@a.io` }));
    expect(
      (await expectScimRejection(checkRequestBounds({ Operations: [op('emails', values)] }), 'tooMany')).detail,
    ).to.equal('emails has 101 values; at most 100 are allowed');
    expect(
      (
        await expectScimRejection(
          checkRequestBounds({ Operations: [op(undefined, { phoneNumbers: values })] }),
          'tooMany',
        )
      ).detail,
    ).to.match(/^phoneNumbers has 101/);
    expect(
      (
        await expectScimRejection(
          checkRequestBounds({ Operations: [op('userName', 'u'.repeat(1025))] }),
          'invalidValue',
        )
      ).detail,
    ).to.equal('userName must be at most 1024 characters');
  });

  it('bounds attribute names and leaves ordinary bodies alone', async () => {
    await expectScimRejection(checkRequestBounds({ ['k'.repeat(257)]: 1 }), 'invalidValue');
    await checkRequestBounds({
      userName: 'ann@acme.io',
      emails: [{ value: 'ann@acme.io', primary: true }],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { manager: { value: 'x' } },
    });
  });

  it('checks the stored shape: identifiers, and values per attribute in extensions too', () => {
    expectScimError(() => checkResourceBounds({ displayName: 'g'.repeat(1025) }), 'invalidValue');
    const ext = 'urn:example:ext';
    const err = expectScimError(
      () => checkResourceBounds({ userName: 'a', [ext]: { tags: Array.from({ length: 101 }, String) } }),
      'tooMany',
    );
    expect(err.detail).to.equal(`${ext}:tags has 101 values; at most 100 are allowed`);
    expect(() => checkResourceBounds({ displayName: 'g', members: ids(5000) })).not.to.throw();
  });
});
