/**
 * Management API (docs/reference/http-api.md) under /api/v1/directory-sync, plus the cron routes under
 * /api/v1/dsync/cron.
 */
import { z } from 'zod';
import { createDirectoryInput, updateDirectoryInput } from '../../core/directory-input.js';
import { groupEventDataSchema, userEventDataSchema } from '../../core/event-schema.js';
import { MAX_NAME_LENGTH } from '../../core/input-limits.js';
import type { DirectoryScope } from '../../core/queries.js';
import { idParams, idParamsOf, pageOf, pageQuery, requiredQueryValue, scopeQuery } from '../openapi/params.js';
import {
  deletedSchema,
  directorySchema,
  groupWithMembersSchema,
  memberSchema,
  passStatsSchema,
} from '../openapi/response-schemas.js';
import { route, type ApiRoute } from '../openapi/route-table.js';

const TAG = 'Directories';

function scopeOf({ directoryId, tenant, product }: z.output<typeof scopeQuery>): DirectoryScope {
  return {
    ...(directoryId && { directoryId }),
    ...(tenant && { tenant }),
    ...(product && { product }),
  };
}

const bothRequired = (name: string) =>
  requiredQueryValue(name, MAX_NAME_LENGTH, `${name} is required (give both tenant and product)`).describe(
    `The directories' ${name}`,
  );
const listDirectoriesQuery = z.object({ tenant: bothRequired('tenant'), product: bothRequired('product') });
const scopedPage = scopeQuery.extend(pageQuery.shape);
const userId = idParamsOf('The user id (the id dsync gave it, as in SCIM)');
const groupId = idParamsOf('The group id (the id dsync gave it, as in SCIM)');

/**
 * Said of every users/groups read: what scopeQuery's two forms mean (a rule across parameters, which a schema cannot
 * state).
 */
const SCOPE =
  'Give `directoryId`, or both `tenant` and `product` (every directory of that tenant and product); anything else is a 400. ' +
  "With `directoryId`, a `tenant` or `product` given too must be the directory's, else 404.";
const PAGED = 'Paged with `pageOffset`/`pageLimit`, oldest first.';

export const managementRoutes: ApiRoute[] = [
  route({
    method: 'post',
    path: '/directory-sync',
    reach: 'body',
    secrets: true,
    operationId: 'createDirectory',
    summary: 'Create a directory connection',
    description:
      'Creates a directory with its SCIM endpoint and bearer token (give `scim.endpoint` and `scim.secret` to the IdP), and ' +
      'its webhook when `webhook_url` is given (a `whsec_` secret is generated unless `webhook_secret` is given). ' +
      '`type: google` directories are filled by the Google sync instead of SCIM.',
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
    operationId: 'listDirectories',
    summary: 'List the directories of a tenant and product',
    description: 'Every directory of the tenant and product, oldest first (not paged).',
    tag: TAG,
    query: listDirectoriesQuery,
    responses: { 200: { description: 'Oldest first', data: z.array(directorySchema) } },
    handle: ({ query }, dsync) => dsync.directories.list(query),
  }),
  route({
    method: 'get',
    path: '/directory-sync/users',
    reach: 'query',
    operationId: 'listUsers',
    summary: 'List users (of one directory, or of every directory of a tenant and product)',
    description: `${SCOPE} ${PAGED}`,
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
    operationId: 'getUser',
    summary: 'Get a user',
    description: `The user as the last event carried it. ${SCOPE}`,
    tag: 'Users and groups',
    params: userId,
    query: scopeQuery,
    responses: { 200: { description: 'The user', data: userEventDataSchema } },
    errors: [404],
    handle: ({ params, query }, dsync) => dsync.queries.getUser(scopeOf(query), params.id),
  }),
  route({
    method: 'get',
    path: '/directory-sync/groups',
    reach: 'query',
    operationId: 'listGroups',
    summary: 'List groups (of one directory, or of every directory of a tenant and product)',
    description: `Groups without their members (see listGroupMembers). ${SCOPE} ${PAGED}`,
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
    operationId: 'getGroup',
    summary: 'Get a group',
    description: `The group with every member; page large groups with listGroupMembers instead. ${SCOPE}`,
    tag: 'Users and groups',
    params: groupId,
    query: scopeQuery,
    responses: { 200: { description: 'The group with its members', data: groupWithMembersSchema } },
    errors: [404],
    handle: ({ params, query }, dsync) => dsync.queries.getGroup(scopeOf(query), params.id),
  }),
  route({
    method: 'get',
    path: '/directory-sync/groups/:id/members',
    reach: 'query',
    operationId: 'listGroupMembers',
    summary: "List a group's members",
    description: `The user ids of the group's members. ${SCOPE} ${PAGED}`,
    tag: 'Users and groups',
    params: groupId,
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
    operationId: 'getDirectory',
    summary: 'Get a directory',
    description: 'The directory with its SCIM endpoint and token and its webhook.',
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
    operationId: 'updateDirectory',
    summary: 'Update a directory (tenant, product and type are immutable)',
    description:
      'Changes the fields given. `tenant`, `product` and `type` are accepted only unchanged (a client may send back what it ' +
      'read). Setting the webhook again (any webhook field) re-enables one a 410 Gone disabled; `webhook_url: ""` removes it. ' +
      'A directory managed by the Kubernetes operator is changed through its resource (403).',
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
    operationId: 'deleteDirectory',
    summary: 'Delete a directory with its users, groups and events',
    description: 'Deletes the directory and everything it holds; no events are emitted for what it held.',
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
    operationId: 'processEvents',
    summary: 'Deliver the events that are due (batch mode and retries)',
    description:
      'One delivery pass over every directory with events due: batches in batch mode, retries whose time has come. ' +
      'Concurrent runs (replicas, CronJob pods) never send an event twice except as a retry.',
    tag: 'Cron',
    responses: { 200: { description: 'What the run did', data: passStatsSchema } },
    handle: (_input, dsync) => dsync.processEvents(),
  }),
];
