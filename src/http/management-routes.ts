/** Management API (SPEC §4.1) under /api/v1/directory-sync, plus the cron routes under /api/v1/dsync/cron. */
import { z } from 'zod';
import { createDirectoryInput, updateDirectoryInput } from '../core/directory-input.js';
import { groupEventDataSchema, userEventDataSchema } from '../core/event-schema.js';
import { MAX_NAME_LENGTH } from '../core/limits.js';
import type { DirectoryScope } from '../core/queries.js';
import { idParams, pageOf, pageQuery, requiredQueryValue, scopeQuery } from './params.js';
import { deletedSchema, directorySchema, groupWithMembersSchema, memberSchema, passStatsSchema } from './response-schemas.js';
import { route, type ApiRoute } from './route-table.js';

const TAG = 'Directories';

function scopeOf({ directoryId, tenant, product }: z.output<typeof scopeQuery>): DirectoryScope {
  return {
    ...(directoryId && { directoryId }),
    ...(tenant && { tenant }),
    ...(product && { product }),
  };
}

const bothRequired = (name: string) => requiredQueryValue(name, MAX_NAME_LENGTH, `${name} is required (give both tenant and product)`);
const listDirectoriesQuery = z.object({ tenant: bothRequired('tenant'), product: bothRequired('product') });
const scopedPage = scopeQuery.extend(pageQuery.shape);

export const managementRoutes: ApiRoute[] = [
  route({
    method: 'post',
    path: '/directory-sync',
    reach: 'body',
    secrets: true,
    summary: 'Create a directory connection',
    tag: TAG,
    body: createDirectoryInput,
    status: 201,
    responses: { 201: { description: 'The directory, with its SCIM endpoint and token', data: directorySchema } },
    handle: ({ body }, dsync) => dsync.directories.create(body),
  }),
  route({
    method: 'get',
    path: '/directory-sync',
    reach: 'query',
    secrets: true,
    summary: 'List the directories of a tenant and product',
    tag: TAG,
    query: listDirectoriesQuery,
    responses: { 200: { description: 'Oldest first', data: z.array(directorySchema) } },
    handle: ({ query }, dsync) => dsync.directories.list(query),
  }),
  route({
    method: 'get',
    path: '/directory-sync/users',
    reach: 'query',
    summary: 'List users (of one directory, or of every directory of a tenant and product)',
    tag: 'Users and groups',
    query: scopedPage,
    responses: { 200: { description: 'A page of users', data: z.array(userEventDataSchema) } },
    errors: [404],
    handle: ({ query }, dsync) => dsync.queries.listUsers(scopeOf(query), pageOf(query)),
  }),
  route({
    method: 'get',
    path: '/directory-sync/users/:id',
    reach: 'query',
    summary: 'Get a user',
    tag: 'Users and groups',
    params: idParams,
    query: scopeQuery,
    responses: { 200: { description: 'The user', data: userEventDataSchema } },
    errors: [404],
    handle: ({ params, query }, dsync) => dsync.queries.getUser(scopeOf(query), params.id),
  }),
  route({
    method: 'get',
    path: '/directory-sync/groups',
    reach: 'query',
    summary: 'List groups (of one directory, or of every directory of a tenant and product)',
    tag: 'Users and groups',
    query: scopedPage,
    responses: { 200: { description: 'A page of groups', data: z.array(groupEventDataSchema) } },
    errors: [404],
    handle: ({ query }, dsync) => dsync.queries.listGroups(scopeOf(query), pageOf(query)),
  }),
  route({
    method: 'get',
    path: '/directory-sync/groups/:id',
    reach: 'query',
    summary: 'Get a group',
    tag: 'Users and groups',
    params: idParams,
    query: scopeQuery,
    responses: { 200: { description: 'The group with its members', data: groupWithMembersSchema } },
    errors: [404],
    handle: ({ params, query }, dsync) => dsync.queries.getGroup(scopeOf(query), params.id),
  }),
  route({
    method: 'get',
    path: '/directory-sync/groups/:id/members',
    reach: 'query',
    summary: "List a group's members",
    tag: 'Users and groups',
    params: idParams,
    query: scopedPage,
    responses: { 200: { description: 'A page of member user ids', data: z.array(memberSchema) } },
    errors: [404],
    handle: ({ params, query }, dsync) => dsync.queries.groupMembers(scopeOf(query), params.id, pageOf(query)),
  }),
  route({
    method: 'get',
    path: '/directory-sync/:id',
    reach: 'directory',
    secrets: true,
    summary: 'Get a directory',
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'The directory', data: directorySchema } },
    errors: [404],
    handle: ({ params }, dsync) => dsync.directories.get(params.id),
  }),
  route({
    method: 'patch',
    path: '/directory-sync/:id',
    reach: 'directory',
    secrets: true,
    summary: 'Update a directory (tenant, product and type are immutable)',
    tag: TAG,
    params: idParams,
    body: updateDirectoryInput,
    responses: { 200: { description: 'The updated directory', data: directorySchema } },
    errors: [403, 404],
    handle: async ({ params, body }, dsync) => {
      const updated = await dsync.directories.update(params.id, body);
      // A re-enabled webhook (or a new one) resumes delivery of what waited.
      dsync.delivery.notify(updated.id);
      return updated;
    },
  }),
  route({
    method: 'delete',
    path: '/directory-sync/:id',
    reach: 'directory',
    summary: 'Delete a directory with its users, groups and events',
    tag: TAG,
    params: idParams,
    responses: { 200: { description: 'Deleted', data: deletedSchema } },
    errors: [403, 404],
    handle: async ({ params }, dsync) => {
      await dsync.directories.delete(params.id);
      return { id: params.id, deleted: true as const };
    },
  }),
  route({
    method: 'post',
    path: '/dsync/cron/process-events',
    summary: 'Deliver the events that are due (batch mode and retries)',
    tag: 'Cron',
    responses: { 200: { description: 'What the run did', data: passStatsSchema } },
    handle: (_input, dsync) => dsync.processEvents(),
  }),
];
