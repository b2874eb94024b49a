/**
 * The live scenario with openapi-fetch on the types openapi-typescript made from the document (compiled next to
 * them): create a directory, let an IdP push a user and a group over SCIM, list the users, read the events
 * narrowed by `event`.
 */
import createClient from 'openapi-fetch';
import type { paths } from './dsync-api';
import { scim } from './scim';

async function main(): Promise<void> {
  const [base, key] = process.argv.slice(2) as [string, string];
  const api = createClient<paths>({ baseUrl: base, headers: { authorization: `Api-Key ${key}` } });
  const created = await api.POST('/api/v1/directory-sync', {
    body: { name: 'Acme', tenant: 'acme-oat', product: 'app', type: 'okta-scim-v2' },
  });
  if (!created.data) throw new Error(JSON.stringify(created.error));
  const directory = created.data.data;
  console.log('created', directory.type);
  const ann = await scim(directory, '/Users', {
    userName: 'ann@acme.io',
    name: { givenName: 'Ann', familyName: 'Lee' },
    emails: [{ value: 'ann@acme.io', primary: true }],
  });
  await scim(directory, '/Groups', { displayName: 'Engineering', members: [{ value: ann.id }] });

  const users = await api.GET('/api/v1/directory-sync/users', { params: { query: { directoryId: directory.id } } });
  console.log('users', (users.data?.data ?? []).map((u) => u.email).join(','));

  const page = await api.GET('/api/v1/directory-sync/{id}/events', { params: { path: { id: directory.id } } });
  const events = page.data?.data.events ?? [];
  console.log('events', events.map((e) => e.event).join(','));
  for (const e of events) {
    // Narrowed by `event`: `data.group` exists on membership events only.
    if (e.event === 'group.user_added') console.log('added', e.data.first_name, 'to', e.data.group.name);
    else if (e.event === 'user.created') console.log('user', e.data.email, 'active', e.data.active);
  }

  const missing = await api.GET('/api/v1/directory-sync/{id}', { params: { path: { id: 'no-such-directory' } } });
  console.log('missing', missing.error?.error.code);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
