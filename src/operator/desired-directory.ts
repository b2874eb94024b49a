/**
 * The stored directory a DirectoryConnection asks for, and what (if anything) must change to get there. Pure;
 * validation is the core's own (`createDirectoryInput`), so the operator accepts exactly what the API does.
 */
import { changedImmutableField, parseCreateInput, staysDisabled, type ImmutableField } from '../core/directories.js';
import type { CreateDirectoryInput } from '../core/directory-input.js';
import { sameJson } from '../core/json-equality.js';
import type { Directory, InactiveUsers, RoleMapping } from '../core/model.js';
import type { ValidationError } from '../core/errors.js';
import type { DirectoryConnectionSpec } from './crd-schema.js';

/** The identity the operator acts as in the store: only it may change the directories it manages. */
export const managedBy = (namespace: string, name: string): string => `kubernetes:${namespace}/${name}`;

/** The management API's create input for a spec; throws the core's ValidationError when it is invalid. */
export function directoryInput(spec: DirectoryConnectionSpec, webhookSecret?: string): CreateDirectoryInput {
  return parseCreateInput({
    name: spec.name,
    tenant: spec.tenant,
    product: spec.product,
    type: spec.type,
    ...(spec.webhook && { webhook_url: spec.webhook.url }),
    ...(spec.webhook && webhookSecret !== undefined && { webhook_secret: webhookSecret }),
    log_webhook_events: spec.logWebhookEvents,
    deactivated: spec.deactivated,
    // Only when `delete`: `keep` is the default, and a directory stored before the setting existed stays unchanged.
    ...(spec.inactiveUsers === 'delete' && { inactive_users: 'delete' as const }),
    ...(spec.google && { google_domain: spec.google.domain }),
    // Only when on: off is the default, and a directory stored before the setting existed stays unchanged.
    ...(spec.google?.nestedGroups && { google_nested_groups: true }),
    ...(spec.microsoft?.tenantId && { microsoft_tenant_id: spec.microsoft.tenantId }),
    ...(spec.microsoft?.nestedGroups && { microsoft_nested_groups: true }),
    ...(spec.roleMapping && { role_mapping: roleMappingOf(spec.roleMapping) }),
    ...(spec.attributeMapping && { attribute_mapping: spec.attributeMapping }),
  });
}

/**
 * A refusal of `directoryInput` as the resource's author reads it: the webhook secret comes from a Secret, the
 * attribute mapping's names and sources (which only the core can check) from spec.attributeMapping.
 */
export function specFieldMessage(err: ValidationError): string {
  if (err.field === 'webhook_secret') return `${err.message} (value of spec.webhook.secretRef)`;
  if (err.field?.startsWith('attribute_mapping') && err.message.startsWith('attribute_mapping')) {
    return `spec.attributeMapping${err.message.slice('attribute_mapping'.length)}`;
  }
  return err.message;
}

const inactiveUsers = (d: { inactive_users?: InactiveUsers }): InactiveUsers => d.inactive_users ?? 'keep';

/** The spec's roleMapping as the directory's role_mapping. */
function roleMappingOf(spec: NonNullable<DirectoryConnectionSpec['roleMapping']>): RoleMapping {
  return { ...(spec.defaultRole !== undefined && { default_role: spec.defaultRole }), rules: spec.rules };
}

export interface DesiredDirectory {
  input: CreateDirectoryInput;
  scim: { secret: string; endpoint: string };
  managedBy: string;
  /** Resume webhook delivery stopped by a 410 Gone (a new `dsync.io/reenable-webhook` value). */
  reenableWebhook?: boolean;
}

export type DirectoryPlan =
  | { action: 'create' }
  | { action: 'none' }
  | { action: 'update'; next: Directory }
  /** tenant, product and type are immutable in the store; the CRD's CEL rules normally stop this earlier. */
  | { action: 'immutable'; field: ImmutableField; stored: string };

export function planDirectory(current: Directory | null, desired: DesiredDirectory, now = new Date()): DirectoryPlan {
  if (!current) return { action: 'create' };
  const { input } = desired;
  const immutable = changedImmutableField(current, input);
  if (immutable) return { action: 'immutable', field: immutable, stored: current[immutable] };
  // The tenant the admin's consent named stays unless the spec names one (consent never comes from the spec).
  const {
    google_domain: _domain,
    google_nested_groups: _nested,
    microsoft_nested_groups: _msNested,
    role_mapping: _roles,
    attribute_mapping: _attributes,
    webhook_disabled_at: disabledAt,
    ...rest
  } = current;
  const webhook = { endpoint: input.webhook_url ?? '', secret: input.webhook_url ? (input.webhook_secret ?? '') : '' };
  const next: Directory = {
    ...rest,
    ...(staysDisabled(current, webhook, desired.reenableWebhook ?? false) && { webhook_disabled_at: disabledAt }),
    name: input.name,
    log_webhook_events: input.log_webhook_events ?? false,
    deactivated: input.deactivated ?? false,
    webhook,
    scim: { ...current.scim, secret: desired.scim.secret, endpoint: desired.scim.endpoint },
    ...(input.google_domain !== undefined && { google_domain: input.google_domain }),
    ...(input.google_nested_groups !== undefined && { google_nested_groups: input.google_nested_groups }),
    ...(input.microsoft_tenant_id !== undefined && { microsoft_tenant_id: input.microsoft_tenant_id }),
    ...(input.microsoft_nested_groups !== undefined && { microsoft_nested_groups: input.microsoft_nested_groups }),
    ...(inactiveUsers(input) !== inactiveUsers(current) && { inactive_users: inactiveUsers(input) }),
    ...(input.role_mapping !== undefined && { role_mapping: input.role_mapping }),
    ...(input.attribute_mapping !== undefined && { attribute_mapping: input.attribute_mapping }),
    managed_by: desired.managedBy,
  };
  const same =
    next.name === current.name &&
    next.log_webhook_events === current.log_webhook_events &&
    next.deactivated === current.deactivated &&
    next.webhook.endpoint === current.webhook.endpoint &&
    next.webhook.secret === current.webhook.secret &&
    next.webhook_disabled_at === current.webhook_disabled_at &&
    next.scim.secret === current.scim.secret &&
    next.scim.endpoint === current.scim.endpoint &&
    next.google_domain === current.google_domain &&
    next.google_nested_groups === current.google_nested_groups &&
    next.microsoft_tenant_id === current.microsoft_tenant_id &&
    next.microsoft_nested_groups === current.microsoft_nested_groups &&
    inactiveUsers(next) === inactiveUsers(current) &&
    sameJson(next.role_mapping, current.role_mapping) &&
    sameJson(next.attribute_mapping, current.attribute_mapping) &&
    next.managed_by === current.managed_by;
  return same ? { action: 'none' } : { action: 'update', next: { ...next, updated_at: now.toISOString() } };
}
