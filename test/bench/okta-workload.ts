/** Okta's SCIM create workload, shared by the benchmarks: the user it sends and its lookup-then-POST. */
import type { Client } from './lib.js';

const enc = encodeURIComponent;

export const oktaUser = (tag: string, i: number) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: `${tag}.user${i}@example.com`,
  name: { givenName: `Given${i}`, familyName: `Family${i}` },
  emails: [{ primary: true, value: `${tag}.user${i}@example.com`, type: 'work' }],
  displayName: `Given${i} Family${i}`,
  locale: 'en-US',
  externalId: `00u${tag}${String(i).padStart(10, '0')}`,
  groups: [],
  active: true,
});

/** Okta's user with `extra` characters more (an enterprise extension's department: real directories' users are
 * often 1–2 KB of JSON, the bench's ~350 bytes). */
export const biggerOktaUser = (tag: string, i: number, extra: number) =>
  extra > 0
    ? {
        ...oktaUser(tag, i),
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'd'.repeat(extra) },
      }
    : oktaUser(tag, i);

export function check(status: number, want: number[], what: string): void {
  if (!want.includes(status)) throw new Error(`${what}: unexpected status ${status}`);
}

/** Okta's create: look the userName up (200, empty), then POST. Two requests per user. */
export function createUsers(scim: Client, base: string, tag: string, from: number) {
  return async (i: number, timed: <T>(fn: () => Promise<T>) => Promise<T>) => {
    const user = oktaUser(tag, from + i);
    const found = await timed(() =>
      scim.request('GET', `${base}/Users?filter=${enc(`userName eq "${user.userName}"`)}&startIndex=1&count=100`),
    );
    check(found.status, [200], 'lookup');
    const created = await timed(() => scim.request('POST', `${base}/Users`, user));
    check(created.status, [201], 'create');
  };
}
