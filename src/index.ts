/**
 * dsync as a library: create the service around a store and hand it SCIM requests.
 *
 *   import { createDsync, MemoryStore } from 'dsync-service';
 *   const dsync = createDsync({ store: new MemoryStore(), externalUrl: 'https://app.example.com' });
 *   const directory = await dsync.directories.create({ name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' });
 *   const { status, data } = await dsync.requests.handle(
 *     { method: 'GET', directoryId: directory.id, resourceType: 'users', apiSecret: directory.scim.secret, query: {} },
 *     (event) => console.log(event.event),
 *   );
 */
export { createDsync, type Dsync, type DsyncOptions } from './service.js';
// The setup page for a customer's IT admin, to mount in the host application's express app
// (docs/guides/setting-up-a-customer.md).
export { setupRoutes, type SetupRoutesOptions } from './http/setup/routes.js';
export { createPageLimits, type PageLimits } from './ratelimit/page-limits.js';
export type { CreatedSetupLink, SetupLinkView, SetupLinks } from './core/setup-links.js';
export type { CreatedScimToken, ScimTokenView, ScimTokens } from './core/scim-tokens.js';
export type { ActivityRecorder, ActivityView } from './core/activity.js';
export type { ActivityEntry } from './core/store-port.js';
export { MemoryStore } from './store/memory/users-groups.js';
export { RedisStore, type RedisStoreOptions } from './store/redis/users-groups.js';
export type { RedisTarget, RedisTargetAuth } from './store/redis/target.js';
export type { Store } from './core/store-port.js';
export type { UserWriter, UserChange, UserWriteStore } from './core/users.js';
export type { GroupWriter, GroupChange, GroupWriteStore } from './core/groups.js';
export type { MemberRef } from './core/memberships.js';
export type { CommitListener, WriteOptions } from './core/commit.js';
export type { ScimRequest, EventCallback } from './scim/handler.js';
export type { ScimResult } from './scim/context.js';
export type {
  Directory,
  DirectoryType,
  DirectorySyncEvent,
  EventType,
  UserEventData,
  UserAttributes,
  GroupEventData,
  MembershipEventData,
  DirectorySyncEventOf,
  EventDataOf,
} from './core/model.js';
// The same events as zod schemas (what the types and the OpenAPI document's webhooks are generated from).
export { directorySyncEventSchema, eventSchemas } from './core/event-schema.js';
export { DIRECTORY_TYPES, EVENT_TYPES } from './core/model.js';
export {
  DsyncError,
  ValidationError,
  NotFoundError,
  ConflictError,
  ContentionError,
  ForbiddenError,
  StoreNotDurableError,
  StoreUnavailableError,
} from './core/errors.js';
export { ScimError } from './scim/errors.js';
export { DeadLetterNotFound, InvalidDeliveryOptionError } from './delivery/errors.js';
export type { EngineTuning, WebhookOptions } from './delivery/options.js';
export type { GoogleProvider } from './providers/google/google.js';
export type { GoogleDirectoryView, TokenSet } from './providers/google/authorization.js';
export type { DirectoryReport, SyncReport } from './providers/google/google-sync.js';
export type { SyncStatus, SyncState, SyncCounts } from './providers/google/sync-status.js';
export type {
  BrowserFlows,
  FlowCookie,
  FlowProvider,
  FlowTarget,
  FinishedFlow,
  StartedFlow,
} from './providers/oauth/browser-flows.js';
export { FlowBrowserMismatchError, FlowLinkUsedError, InvalidFlowStateError } from './providers/oauth/errors.js';
export type { ApiKey, KeyScope } from './http/middleware/api-keys.js';
