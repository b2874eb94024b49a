/** Directory connections: create, read, list, update, delete. Depends only on the store port. */
import type { z } from 'zod';
import { keepPreviousSecret } from './scim-token-list.js';
import type { AccessStore, DirectoryStore } from './store-port.js';
import {
  createDirectoryInput,
  describeIssues,
  updateDirectoryInput,
  type CreateDirectoryInput,
} from './directory-input.js';
import { ForbiddenError, NotFoundError, ValidationError } from './errors.js';
import { newId, newSecret, newWebhookSecret } from './ids.js';
import { sameJson } from './json-equality.js';
import { malformedField } from './json-field-walk.js';
import type { AttributeMapping, Directory, ShownDirectory } from './model.js';
import { runningSince } from './reevaluations.js';

export interface DirectoryServiceOptions {
  /** The directories, and their SCIM token lists (a rotation keeps the replaced token working for a while). */
  store: DirectoryStore & Pick<AccessStore, 'getDirectoryAccess' | 'putScimTokens'>;
  /** Base URL that `scim.endpoint` is built on, without a trailing slash. */
  externalUrl: string;
  /**
   * Runs the evaluation of every user a mapping change asks for (core/reevaluations.ts): its status is
   * `directory.reevaluation`, written with the change.
   */
  mappingChanged?: (directory: Directory) => Promise<void>;
  /** How long a PATCH that changes a mapping waits for that evaluation before it answers (default 5 s). */
  reevaluationWaitMs?: number;
}

/** Who asks for a change: the operator passes its identity to change the directories it manages. */
export interface Actor {
  managedBy?: string;
}

/** Values a controller fixes instead of letting them be generated (idempotent reconcile). */
export interface CreateOptions {
  /** Directory id (the operator uses the custom resource's uid). */
  id?: string;
  /** SCIM bearer token (the operator keeps it in the resource's Secret). */
  scimSecret?: string;
}

/** A directory as read: `inactive_users` is `keep` on one created before it existed. */
const shown = (d: Directory): ShownDirectory => ({ ...d, inactive_users: d.inactive_users ?? 'keep' });

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  // Before the schema: a lone surrogate would be stored as is in memory and as U+FFFD in Redis.
  const malformed = malformedField(input);
  if (malformed !== undefined)
    throw new ValidationError(`${malformed} is not valid Unicode (a lone UTF-16 surrogate)`, malformed);
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const { message, field } = describeIssues(result.error);
  throw new ValidationError(message, field);
}

/** A directory's create input, checked (the management API's create and the operator's spec both use this). */
export function parseCreateInput(input: unknown): CreateDirectoryInput {
  return parseInput(createDirectoryInput, input);
}

export const IMMUTABLE_FIELDS = ['tenant', 'product', 'type'] as const;
export type ImmutableField = (typeof IMMUTABLE_FIELDS)[number];

/** The first of tenant, product, type that `input` would change (they name the directory's scope for good). */
export function changedImmutableField(
  current: Directory,
  input: Partial<Record<ImmutableField, string>>,
): ImmutableField | undefined {
  return IMMUTABLE_FIELDS.find((field) => input[field] !== undefined && input[field] !== current[field]);
}

/**
 * A webhook a 410 Gone disabled stays disabled through a change unless the change sets it again: a different
 * endpoint or secret is a new webhook, and `reenable` (the API: any webhook field given; the operator: a new
 * re-enable annotation) resumes the same one.
 */
export function staysDisabled(current: Directory, webhook: Directory['webhook'], reenable: boolean): boolean {
  return (
    current.webhook_disabled_at !== undefined &&
    !reenable &&
    webhook.endpoint === current.webhook.endpoint &&
    webhook.secret === current.webhook.secret
  );
}

export const scimPath = (id: string): string => `/api/scim/v2.0/${id}`;

export class DirectoryService {
  private readonly store: DirectoryServiceOptions['store'];
  private readonly externalUrl: string;
  private readonly mappingChanged: (directory: Directory) => Promise<void>;
  private readonly reevaluationWaitMs: number;

  constructor(options: DirectoryServiceOptions) {
    this.store = options.store;
    this.externalUrl = options.externalUrl.replace(/\/+$/, '');
    this.mappingChanged = options.mappingChanged ?? (async () => undefined);
    this.reevaluationWaitMs = options.reevaluationWaitMs ?? REEVALUATION_WAIT_MS;
  }

  async create(input: unknown, actor: Actor = {}, fixed: CreateOptions = {}): Promise<ShownDirectory> {
    const data = parseCreateInput(input);
    const id = fixed.id ?? newId();
    const now = new Date().toISOString();
    const path = scimPath(id);
    const directory: ShownDirectory = {
      id,
      name: data.name,
      tenant: data.tenant,
      product: data.product,
      type: data.type,
      log_webhook_events: data.log_webhook_events ?? false,
      deactivated: data.deactivated ?? false,
      scim: { path, secret: fixed.scimSecret ?? newSecret(), endpoint: `${this.externalUrl}${path}` },
      webhook: {
        endpoint: data.webhook_url ?? '',
        secret: data.webhook_url ? (data.webhook_secret ?? newWebhookSecret()) : '',
      },
      ...(data.google_domain !== undefined && { google_domain: data.google_domain }),
      ...(data.google_access_token !== undefined && { google_access_token: data.google_access_token }),
      ...(data.google_refresh_token !== undefined && { google_refresh_token: data.google_refresh_token }),
      ...(data.google_nested_groups !== undefined && { google_nested_groups: data.google_nested_groups }),
      ...(data.microsoft_tenant_id !== undefined && { microsoft_tenant_id: data.microsoft_tenant_id }),
      ...(data.microsoft_nested_groups !== undefined && { microsoft_nested_groups: data.microsoft_nested_groups }),
      ...(actor.managedBy !== undefined && { managed_by: actor.managedBy }),
      inactive_users: data.inactive_users ?? 'keep',
      ...(data.role_mapping !== undefined && { role_mapping: data.role_mapping }),
      ...(hasNames(data.attribute_mapping) && { attribute_mapping: data.attribute_mapping }),
      created_at: now,
      updated_at: now,
    };
    await this.store.createDirectory(directory);
    return directory;
  }

  async get(id: string): Promise<ShownDirectory> {
    const directory = await this.store.getDirectory(id);
    if (!directory) throw new NotFoundError(`Directory ${id} not found`);
    return shown(directory);
  }

  async list(filter: { tenant: string; product: string }): Promise<ShownDirectory[]> {
    return (await this.store.listDirectories(filter)).map(shown);
  }

  async update(id: string, input: unknown, actor: Actor = {}): Promise<ShownDirectory> {
    const data = parseInput(updateDirectoryInput, input);
    const current = await this.get(id);
    this.assertMayChange(current, actor);
    const immutable = changedImmutableField(current, data);
    if (immutable) throw new ValidationError(`${immutable} cannot be changed`, immutable);
    const endpoint = data.webhook_url ?? data.webhook?.endpoint ?? current.webhook.endpoint;
    const secret = data.webhook_secret ?? data.webhook?.secret ?? current.webhook.secret;
    const webhook = { endpoint, secret: endpoint ? secret || newWebhookSecret() : '' };
    // Setting the webhook again re-enables a webhook that a 410 disabled.
    const webhookGiven = [data.webhook_url, data.webhook?.endpoint, data.webhook_secret, data.webhook?.secret].some(
      (v) => v !== undefined,
    );
    const { webhook_disabled_at: disabledAt, role_mapping: mapping, attribute_mapping: attributes, ...rest } = current;
    const roleMapping = data.role_mapping === undefined ? mapping : (data.role_mapping ?? undefined);
    const attributeMapping = data.attribute_mapping === undefined ? attributes : (data.attribute_mapping ?? undefined);
    const next: ShownDirectory = {
      ...rest,
      ...(staysDisabled(current, webhook, webhookGiven) && { webhook_disabled_at: disabledAt }),
      ...(data.name !== undefined && { name: data.name }),
      ...(data.log_webhook_events !== undefined && { log_webhook_events: data.log_webhook_events }),
      ...(data.deactivated !== undefined && { deactivated: data.deactivated }),
      ...(data.google_domain !== undefined && { google_domain: data.google_domain }),
      ...(data.google_access_token !== undefined && { google_access_token: data.google_access_token }),
      ...(data.google_refresh_token !== undefined && { google_refresh_token: data.google_refresh_token }),
      ...(data.google_nested_groups !== undefined && { google_nested_groups: data.google_nested_groups }),
      ...(data.microsoft_tenant_id !== undefined && { microsoft_tenant_id: data.microsoft_tenant_id }),
      ...(data.microsoft_nested_groups !== undefined && { microsoft_nested_groups: data.microsoft_nested_groups }),
      ...(data.inactive_users !== undefined && { inactive_users: data.inactive_users }),
      ...(roleMapping !== undefined && { role_mapping: roleMapping }),
      ...(hasNames(attributeMapping) && { attribute_mapping: attributeMapping }),
      webhook,
      updated_at: new Date().toISOString(),
    };
    if (!remaps(current, next)) {
      await this.store.updateDirectory(next);
      return next;
    }
    const remapped = { ...next, reevaluation: runningSince(new Date()) };
    await this.store.updateDirectory(remapped);
    // A small directory is evaluated before the answer, which then says so; a big one goes on in the background.
    await settledWithin(this.mappingChanged(remapped), this.reevaluationWaitMs);
    return shown((await this.store.getDirectory(id)) ?? remapped);
  }

  /**
   * Replaces the whole stored record (operator reconcile: the spec is the source of truth). A new `scim.secret`
   * is a rotation: the one it replaces keeps working for ROTATION_GRACE_MS beside it, so the identity provider
   * can be updated without a gap (kept first: a failure in between leaves both working, never neither).
   */
  async put(directory: Directory, actor: Actor = {}): Promise<void> {
    const current = await this.get(directory.id);
    this.assertMayChange(current, actor);
    const previous = current.scim.secret;
    if (previous && previous !== directory.scim.secret && directory.scim.secret) {
      await keepPreviousSecret(this.store, directory.id, previous, directory.scim.secret);
    }
    if (!remaps(current, directory)) {
      await this.store.updateDirectory(directory);
      return;
    }
    const remapped = { ...directory, reevaluation: runningSince(new Date()) };
    await this.store.updateDirectory(remapped);
    // The operator's reconcile does not wait: its evaluation runs in the background.
    void this.mappingChanged(remapped);
  }

  async delete(id: string, actor: Actor = {}): Promise<void> {
    const current = await this.store.getDirectory(id);
    if (!current) {
      // A delete cut short by a crash left data behind its already-deleted record: finish it, still answer 404.
      await this.store.deleteDirectory(id);
      throw new NotFoundError(`Directory ${id} not found`);
    }
    this.assertMayChange(current, actor);
    await this.store.deleteDirectory(id);
  }

  private assertMayChange(directory: Directory, actor: Actor): void {
    if (directory.managed_by && directory.managed_by !== actor.managedBy) {
      throw new ForbiddenError(
        `Directory ${directory.id} is managed by ${directory.managed_by}; change its DirectoryConnection resource instead`,
      );
    }
  }
}

/** An attribute mapping that names something ({} is none: it is not kept). */
const hasNames = (mapping: AttributeMapping | undefined): mapping is AttributeMapping =>
  mapping !== undefined && Object.keys(mapping).length > 0;

/** How long a mapping change's PATCH waits for the evaluation of the users before answering. */
export const REEVALUATION_WAIT_MS = 5000;

/** Whether `next` changes a mapping of `current`: every user is then evaluated again. */
const remaps = (current: Directory, next: Directory): boolean =>
  !sameJson(current.role_mapping, next.role_mapping) || !sameJson(current.attribute_mapping, next.attribute_mapping);

/** Waits for `work` at most `ms` (it goes on after that). */
async function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
