/**
 * De-duplication, deltas and PATCH filters in linear time. Before the fix, 100,000 bare-string
 * members took 13 s to POST and 24 s to PATCH, 20,000 IdP-shaped members 2 s, and 1,000 filtered removals on a
 * user with 40,000 emails 6 s. The bounds below, in CPU time, are a small fraction of those and the results are
 * checked exactly.
 */
import { expect } from 'chai';
import { MemberDeltaBuilder } from '../../../src/scim/members.js';
import { normalizeMembers, normalizeResource } from '../../../src/scim/normalize.js';
import { applyPatch } from '../../../src/scim/patch.js';
import { GROUP_SCHEMA, PATCH_OP_SCHEMA, USER_SCHEMA } from '../../../src/scim/schemas.js';

const BOUND_MS = 1500;
const ids = (n: number, tag = 'u') => Array.from({ length: n }, (_, i) => `${tag}${i}`);
const patchOp = (...Operations: unknown[]) => ({ schemas: [PATCH_OP_SCHEMA], Operations });

/**
 * The CPU time a synchronous step used (the process's, so the garbage collector's threads count too: it can only
 * overstate). Wall time also counted the waits for a core on a loaded machine, and failed there.
 */
function timed<T>(fn: () => T): { result: T; ms: number } {
  const t0 = process.cpuUsage();
  const result = fn();
  const used = process.cpuUsage(t0);
  return { result, ms: (used.user + used.system) / 1000 };
}

describe('big inputs in linear time', () => {
  it('de-duplicates 100,000 bare-string members, first occurrence kept', () => {
    const values = [...ids(100_000), ...ids(1000)];
    const { result, ms } = timed(() => normalizeMembers(values));
    expect(result).to.have.length(100_000);
    expect(result[0]).to.deep.equal({ value: 'u0' });
    expect(result.at(-1)).to.deep.equal({ value: 'u99999' });
    expect(ms).to.be.below(BOUND_MS);
  });

  it('normalizes a group of 20,000 IdP-shaped members ({value, display, $ref})', () => {
    const members = ids(20_000).map((value) => ({
      value,
      display: `${value}@acme.io`,
      $ref: `https://idp.example/scim/Users/${value}`,
    }));
    const { result, ms } = timed(() =>
      normalizeResource({ schemas: [GROUP_SCHEMA], displayName: 'All', members }, 'Group'),
    );
    expect(result.members).to.have.length(20_000);
    expect((result.members as unknown[])[19_999]).to.deep.equal(members[19_999]);
    expect(ms).to.be.below(BOUND_MS);
  });

  it('folds a PATCH adding 100,000 members into one delta', () => {
    const group = { schemas: [GROUP_SCHEMA], id: 'g', displayName: 'All' };
    const { result, ms } = timed(() =>
      applyPatch(
        group,
        patchOp(
          { op: 'add', path: 'members', value: ids(100_000) },
          { op: 'add', path: 'members', value: ids(50_000) },
        ),
        'Group',
      ),
    );
    expect(result.members!.add).to.have.length(100_000);
    expect(result.members!.remove).to.deep.equal([]);
    expect(ms).to.be.below(BOUND_MS);
  });

  it('keeps add and remove disjoint across 100,000 changes (MemberDeltaBuilder)', () => {
    const builder = new MemberDeltaBuilder();
    const { ms } = timed(() => {
      builder.add(ids(100_000).map((value) => ({ value })));
      builder.remove(ids(50_000));
      builder.add([{ value: 'u0' }]);
      builder.remove(['x1']);
    });
    const delta = builder.result()!;
    expect(delta.add).to.have.length(50_001);
    expect(delta.add[0]).to.deep.equal({ value: 'u50000' });
    expect(delta.add.at(-1)).to.deep.equal({ value: 'u0' });
    expect(delta.remove).to.have.length(50_000);
    expect(delta.remove).to.include('x1').and.not.include('u0');
    expect(ms).to.be.below(BOUND_MS);
  });

  describe('10,000 attribute names, the most a request may carry (each lookup scanned every key: 5 s)', () => {
    const names = (n: number, tag = 'x') => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${tag}${i}`, i]));
    const CUSTOM = 'urn:ietf:params:scim:schemas:extension:acme:2.0:User';

    it('normalizes a body of 10,000 new names in ten objects (the bounds: 1,000 each), merging names that differ in case', () => {
      const extensions = Object.fromEntries(
        Array.from({ length: 9 }, (_, i) => [`urn:example:ext${i}:2.0:User`, names(1000, `e${i}_`)]),
      );
      const body = { schemas: [USER_SCHEMA], userName: 'a@acme.io', ...names(990), X0: 'same name', ...extensions };
      const { result, ms } = timed(() => normalizeResource(body, 'User'));
      expect(Object.keys(result)).to.have.length(990 + 2 + 9);
      expect(result.x0).to.equal('same name');
      expect(Object.keys(result['urn:example:ext8:2.0:User'] as object)).to.have.length(1000);
      expect(ms).to.be.below(BOUND_MS);
    });

    it('patches 10,000 names into one object without a path, and removes 1,000 by path (the engine alone: a request is bounded first)', () => {
      const user = { schemas: [USER_SCHEMA], id: 'u', userName: 'a@acme.io', ...names(1000, 'old') };
      const added = timed(() =>
        applyPatch(user, patchOp({ op: 'add', value: { ...names(5000), [CUSTOM]: names(5000, 'y') } }), 'User'),
      );
      expect(Object.keys(added.result.resource)).to.have.length(4 + 1000 + 5000);
      expect(added.ms).to.be.below(BOUND_MS);
      const removals = Object.keys(names(1000, 'OLD')).map((path) => ({ op: 'remove', path }));
      const removed = timed(() => applyPatch(added.result.resource, patchOp(...removals), 'User'));
      expect(Object.keys(removed.result.resource)).to.have.length(4 + 5000);
      expect(removed.ms).to.be.below(BOUND_MS);
    });
  });

  describe('a user with 40,000 emails', () => {
    const emails = ids(40_000, 'mail').map((m, i) => ({ value: `${m}@acme.io`, type: i % 2 ? 'home' : 'work' }));
    const user = () => ({
      schemas: [USER_SCHEMA],
      id: 'u',
      userName: 'big@acme.io',
      emails: emails.map((e) => ({ ...e })),
    });
    const emailsOf = (r: Record<string, unknown>) => (r.emails as Array<{ value: string }>).map((e) => e.value);

    it('applies 1,000 filtered removals in one indexed pass, exactly as one at a time would', () => {
      const operations = ids(1000, 'mail').map((m) => ({
        op: 'remove',
        path: `emails[value eq "${m.toUpperCase()}@ACME.IO"]`,
      }));
      const { result, ms } = timed(() => applyPatch(user(), patchOp(...operations), 'User'));
      expect(result.resource.emails).to.have.length(39_000);
      expect(emailsOf(result.resource)[0]).to.equal('mail1000@acme.io');
      expect(ms).to.be.below(BOUND_MS);
    });

    it('mixes indexed and other filters, and applies queued removals before a later operation reads the list', () => {
      const result = applyPatch(
        user(),
        patchOp(
          { op: 'remove', path: 'emails[type eq "work" and value eq "mail0@acme.io"]' },
          { op: 'remove', path: 'emails[type eq "home" and value eq "mail2@acme.io"]' }, // mail2 is work: stays
          { op: 'remove', path: 'emails[value co "mail3999"]' },
          { op: 'add', path: 'emails', value: [{ value: 'mail1@acme.io', type: 'home' }, { value: 'new@acme.io' }] },
          { op: 'remove', path: 'emails[value eq "new@acme.io"]' },
        ),
        'User',
      );
      const left = emailsOf(result.resource);
      expect(left).to.have.length(40_000 - 1 - 11);
      expect(left).to.not.include.members(['mail0@acme.io', 'mail3999@acme.io', 'mail39990@acme.io', 'new@acme.io']);
      expect(left).to.include.members(['mail1@acme.io', 'mail2@acme.io']);
    });

    it('removes 1,000 listed values (Entra dialect) and adds 40,000 in linear time', () => {
      const doomed = emails.slice(0, 1000).map((e) => ({ value: e.value }));
      const removed = timed(() => applyPatch(user(), patchOp({ op: 'remove', path: 'emails', value: doomed }), 'User'));
      expect(removed.result.resource.emails).to.have.length(39_000);
      expect(removed.ms).to.be.below(BOUND_MS);
      const fresh = ids(40_000, 'other').map((m) => ({ value: `${m}@acme.io` }));
      const added = timed(() =>
        applyPatch(user(), patchOp({ op: 'add', path: 'emails', value: [...fresh, ...emails] }), 'User'),
      );
      expect(added.result.resource.emails).to.have.length(80_000);
      expect(added.ms).to.be.below(BOUND_MS);
    });
  });
});
