/**
 * A user's own events (`user.created`, `user.updated`) are built around its body serialised once
 * (`userJson`, the text the store keeps too). They must be, byte for byte, what `buildEvent` gives with
 * `userData` and `previousAttributes`, for awkward bodies too.
 */
import { expect } from 'chai';
import {
  buildEvent,
  previousAttributes,
  userData,
  userEvent,
  userJson,
  writerBuilt,
} from '../../../src/core/events.js';
import type { PendingEvent, ScimBody } from '../../../src/core/model.js';
import { UserWriter } from '../../../src/core/users.js';
import { memoryDirectory } from '../../support/memory-directory.js';

const dir = { id: 'd-1', tenant: 'acme "corp"', product: 'app' };
const now = Date.UTC(2026, 10, 28, 12, 0, 0);
/** The event's JSON with its id (unique per call) taken out. */
const withoutId = (e: PendingEvent) => e.json.replace(JSON.stringify(e.id), '"<id>"');

const bodies: ScimBody[] = [
  {},
  {
    userName: 'ada@acme.io',
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: 'ada@acme.io', primary: true }],
    active: true,
  },
  {
    userName: 'ada@acme.io',
    name: { givenName: 'Ada', familyName: 'King' },
    emails: [{ value: 'ada@acme.io', primary: true }],
    active: false,
    title: 'Countess',
  },
  {
    userName: 'no-email',
    active: false,
    'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D "lab"' },
  },
  {
    userName: 'żółw 🐢',
    id: 'stale-id',
    name: {},
    emails: [],
    groups: [{ value: 'g9' }],
    n: 1e21,
    nested: { a: [null, true, '\u2028'] },
  },
  { 2: 'integer keys first', b: 1, ['__proto__']: { x: 1 }, userName: 'u' },
  JSON.parse(
    '{"userName":"u","__proto__":{"y":2},"emails":[{"value":"second@acme.io"},{"value":"first@acme.io","primary":true}]}',
  ) as ScimBody,
];

describe("a user's own events from its body serialised once", () => {
  it('user.created: the bytes buildEvent gives with userData', () => {
    for (const body of bodies) {
      for (const id of ['u1', 'id "quoted" \\ ü']) {
        for (const managerEmail of [undefined, 'boss@acme.io']) {
          const spliced = userEvent(
            dir,
            'user.created',
            id,
            { body, managerEmail },
            userJson(id, body, managerEmail),
            undefined,
            now,
          );
          expect(withoutId(spliced)).to.equal(
            withoutId(buildEvent(dir, 'user.created', userData(id, body, managerEmail), undefined, now)),
          );
          expect(spliced.id).to.match(/^evt_/);
        }
      }
    }
  });

  it('user.updated: the same data and previous_attributes, for every pair of bodies and manager emails', () => {
    const emails = [undefined, 'boss@acme.io', 'chief@acme.io'];
    for (const before of bodies) {
      for (const after of bodies) {
        for (const [was, is] of emails.flatMap((a) => emails.map((b) => [a, b] as const))) {
          const id = 'u1';
          const expected = buildEvent(
            dir,
            'user.updated',
            userData(id, after, is),
            previousAttributes(userData(id, before, was), userData(id, after, is)),
            now,
          );
          const spliced = userEvent(
            dir,
            'user.updated',
            id,
            { body: after, managerEmail: is },
            userJson(id, after, is),
            { body: before, managerEmail: was },
            now,
          );
          expect(withoutId(spliced), `${JSON.stringify(before)} → ${JSON.stringify(after)}`).to.equal(
            withoutId(expected),
          );
        }
      }
    }
  });

  it('previous_attributes names the changed attributes alone, each with its old value (absent before: null)', () => {
    const previous = previousAttributes(
      userData('u1', bodies[3]!, 'boss@acme.io'),
      userData('u1', { ...bodies[3]!, title: 'Chemist' }),
    );
    expect(previous).to.deep.equal({
      attributes: { manager_email: 'boss@acme.io', job_title: null },
      raw: { title: null },
    });
  });

  it('userJson is the text a store keeps: JSON.stringify of the body', () => {
    for (const body of bodies) expect(userJson('u1', body).body).to.equal(JSON.stringify(body));
    // A body with its own id, or none, has no fields to splice around: its data is serialised whole.
    expect(userJson('u1', { id: 'x', userName: 'u' }).fields).to.equal(undefined);
    expect(userJson('u1', {}).fields).to.equal(undefined);
    expect(userJson('u1', bodies[1]!).fields).to.deep.equal([
      '"Ada"',
      '"Lovelace"',
      '"ada@acme.io"',
      'true',
      '{}',
      '[]',
      '{}',
    ]);
    expect(userJson('u1', bodies[3]!, 'b@acme.io', ['admin'], { badge: 7 }).fields).to.deep.equal([
      '',
      '',
      '',
      'false',
      '{"department":"R&D \\"lab\\"","manager_email":"b@acme.io"}',
      '["admin"]',
      '{"badge":7}',
    ]);
  });

  it('a write stores the text its event was built around, and delivers the change', async () => {
    const { store, directory } = await memoryDirectory();
    const committed: PendingEvent[] = [];
    const writer = new UserWriter({ store, committed: (_, events) => void committed.push(...events.map(writerBuilt)) });
    const user = await writer.create(directory, bodies[1]!);
    await writer.update(directory, user.id, () => bodies[2]!);
    const stored = await store.getUsersJson(directory.id, [user.id]);
    expect(stored[0]!.bodyJson).to.equal(JSON.stringify(bodies[2]));
    const updated = JSON.parse(committed[1]!.json);
    expect(updated).to.deep.include({ event: 'user.updated' });
    expect(updated.data).to.deep.equal(userData(user.id, bodies[2]!));
    expect(updated.previous_attributes).to.deep.equal({
      last_name: 'Lovelace',
      active: true,
      attributes: { job_title: null },
      raw: { name: bodies[1]!.name, active: true, title: null },
    });
  });
});
