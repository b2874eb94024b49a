/**
 * The live scenario with the typescript-fetch client openapi-generator made (compiled next to it): create a
 * directory, let an IdP push a user and a group over SCIM, list the users, read the events narrowed by `event`.
 */
import {
  Configuration,
  DirectoriesApi,
  EventsAndDeliveryApi,
  ResponseError,
  UsersAndGroupsApi,
} from './generated/index';
import { scim } from './scim';

async function main(): Promise<void> {
  const [base, key] = process.argv.slice(2) as [string, string];
  const config = new Configuration({ basePath: base, apiKey: `Api-Key ${key}` });
  const { data: directory } = await new DirectoriesApi(config).createDirectory({
    createDirectoryInput: { name: 'Acme', tenant: 'acme-fetch', product: 'app', type: 'okta-scim-v2' },
  });
  console.log('created', directory.type);
  const ann = await scim(directory, '/Users', {
    userName: 'ann@acme.io',
    name: { givenName: 'Ann', familyName: 'Lee' },
    emails: [{ value: 'ann@acme.io', primary: true }],
  });
  await scim(directory, '/Groups', { displayName: 'Engineering', members: [{ value: ann.id }] });

  const users = await new UsersAndGroupsApi(config).listUsers({ directoryId: directory.id });
  console.log('users', users.data.map((u) => u.email).join(','));

  const page = await new EventsAndDeliveryApi(config).listEvents({ id: directory.id });
  console.log('events', page.data.events.map((e) => e.event).join(','));
  for (const e of page.data.events) {
    // Narrowed by `event`: `data.group` exists on membership events only.
    if (e.event === 'group.user_added') console.log('added', e.data.firstName, 'to', e.data.group.name);
    else if (e.event === 'user.created') console.log('user', e.data.email, 'active', e.data.active);
  }

  try {
    await new DirectoriesApi(config).getDirectory({ id: 'no-such-directory' });
  } catch (err) {
    if (!(err instanceof ResponseError)) throw err;
    console.log('missing', ((await err.response.json()) as { error: { code: number } }).error.code);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
