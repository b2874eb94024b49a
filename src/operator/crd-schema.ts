/**
 * The DirectoryConnection resource: the one definition of its spec and status. The CRD YAML is generated from
 * these schemas (crd-manifest.ts), the operator validates with them, and the TypeScript types are inferred
 * from them, so the three cannot drift. Field rules come from the core's create input, so the API server
 * rejects what the management API would reject.
 */
import { z } from 'zod';
import { MAX_CUSTOM_ATTRIBUTES, MAX_SOURCE } from '../core/custom-attributes.js';
import { createDirectoryInput, MAX_ROLE_RULES, webhookUrl } from '../core/directory-input.js';
import { MAX_LINK_TTL_S } from '../core/setup-links.js';
import { isHrisType } from '../providers/hris/connector.js';
import type { KubeObject } from './kube.js';

export const GROUP = 'dsync.io';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'DirectoryConnection';
export const PLURAL = 'directoryconnections';

const core = createDirectoryInput.shape;

/** Kubernetes CEL transition rule: the field keeps the value it was created with. */
const immutable = <T extends z.ZodType>(schema: T, field: string): T =>
  schema.meta({
    'x-kubernetes-validations': [
      { rule: 'self == oldSelf', message: `${field} is immutable; create a new DirectoryConnection instead` },
    ],
  });

/** CEL rules the API server checks on create and update, so `kubectl apply` fails instead of the reconcile. */
const celRules = <T extends z.ZodType>(
  schema: T,
  rules: Array<{ rule: string; message: string; fieldPath?: string; reason?: string }>,
): T => schema.meta({ 'x-kubernetes-validations': rules });

const roleText = z.string().min(1).max(1024);

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export const secretKeySelector = z
  .strictObject({
    name: z.string().min(1).max(253).regex(DNS_SUBDOMAIN).describe('Name of a Secret in the same namespace'),
    key: z
      .string()
      .min(1)
      .max(253)
      .regex(/^[-._a-zA-Z0-9]+$/)
      .describe('Key in that Secret'),
  })
  .describe('A key of a Secret in the namespace of the DirectoryConnection');

/** `30m`, `72h`, `7d`: the setup link's lifetime (the core takes seconds). */
const SETUP_LINK_DURATION = /^[1-9][0-9]{0,5}(m|h|d)$/;
const DURATION_S = { m: 60, h: 3_600, d: 86_400 } as const;
export const durationSeconds = (text: string): number =>
  Number(text.slice(0, -1)) * DURATION_S[text.slice(-1) as keyof typeof DURATION_S];

const GOOGLE_REQUIRED = 'spec.google is required when type is google';
const GOOGLE_FORBIDDEN = 'spec.google is only allowed when type is google';
const MICROSOFT_FORBIDDEN = 'spec.microsoft is only allowed when type is microsoft-entra';
const HRIS_REQUIRED = 'spec.hris is required when type is bamboohr, hibob or personio';
const HRIS_FORBIDDEN = 'spec.hris is only allowed when type is bamboohr, hibob or personio';
const HRIS_CEL_TYPES = "['bamboohr', 'hibob', 'personio']";

export const directoryConnectionSpec = z
  .strictObject({
    name: celRules(core.name, [{ rule: "self.matches('\\\\S')", message: 'name must not be blank' }]).describe(
      'Display name of the directory',
    ),
    tenant: immutable(core.tenant, 'tenant').describe('Tenant the directory belongs to'),
    product: immutable(core.product, 'product').describe('Product the directory belongs to'),
    type: immutable(core.type, 'type').describe('Identity provider of the directory'),
    webhook: z
      .strictObject({
        url: celRules(webhookUrl.regex(/^https?:\/\//, 'webhook url must start with http:// or https://'), [
          {
            rule: "isURL(self) && url(self).getHostname() != '' && !self.matches('\\\\s')",
            message: 'url must be an absolute http(s) URL with a host and no spaces',
          },
        ]).describe('Where directory-sync events are POSTed'),
        secretRef: secretKeySelector.describe('Standard Webhooks signing secret (whsec_...)'),
      })
      .optional()
      .describe('Webhook receiving the directory-sync events'),
    logWebhookEvents: z.boolean().default(false).describe('Keep a log of webhook deliveries'),
    deactivated: z.boolean().default(false).describe('A deactivated directory refuses SCIM requests'),
    inactiveUsers: core.inactive_users.unwrap().default('keep'),
    google: z
      .strictObject({
        domain: core.google_domain.unwrap().min(1).describe('Google Workspace domain'),
        nestedGroups: z
          .boolean()
          .default(false)
          .describe('Members of nested groups count as members of the outer group (Google derived membership)'),
        serviceAccount: z
          .strictObject({
            secretRef: secretKeySelector.describe('The service account JSON key (as downloaded from Google Cloud)'),
            adminEmail: z
              .email()
              .max(320)
              .describe('Workspace admin the service account acts as (domain-wide delegation)'),
          })
          .optional()
          .describe('Service account with domain-wide delegation: the sync needs no OAuth consent'),
      })
      .optional()
      .describe('Google Workspace settings (type google)'),
    microsoft: z
      .strictObject({
        tenantId: core.microsoft_tenant_id
          .unwrap()
          .describe(
            "Entra tenant id (GUID): only its admin's consent connects the directory; unset: the first tenant whose admin consents",
          ),
        nestedGroups: z
          .boolean()
          .default(false)
          .describe('Members of nested groups count as members of the outer group'),
      })
      .partial({ tenantId: true })
      .optional()
      .describe(
        'Microsoft Entra ID settings (type microsoft-entra); the consent itself comes from the admin-consent URL',
      ),
    hris: z
      .strictObject({
        credentialsSecretRef: secretKeySelector.describe(
          'The credentials as a JSON object: {"subdomain", "api_key", "webhook_secret"?} (bamboohr), {"service_user_id", "token"} (hibob), {"client_id", "client_secret"} (personio)',
        ),
      })
      .optional()
      .describe('HR system settings (type bamboohr, hibob or personio)'),
    roleMapping: z
      .strictObject({
        defaultRole: roleText.optional().describe('The role of a user no rule matches (none: no role)'),
        rules: z
          .array(
            z.strictObject({
              group: roleText.describe("The group's id or its current displayName"),
              role: roleText.describe("The role of the group's members"),
              priority: z.number().describe("Orders a user's roles: higher first"),
            }),
          )
          .max(MAX_ROLE_RULES)
          .meta({ 'x-kubernetes-list-type': 'atomic' })
          .describe('A user holds the role of every group a rule matches, higher priority first'),
      })
      .optional()
      .describe("The roles the directory's users hold by group (the API's role_mapping)"),
    attributeMapping: z
      // The core's own bound, for the API server to refuse first.
      .record(z.string(), z.string().max(MAX_SOURCE))
      // The names and source paths are checked by the core when the operator applies the spec (InvalidSpec):
      // a JSON Schema cannot parse a SCIM path, and a map's keys take no pattern in a structural schema.
      .meta({ maxProperties: MAX_CUSTOM_ATTRIBUTES })
      .optional()
      .describe(
        'The custom attributes of the directory\'s users (the API\'s attribute_mapping): name → source, a SCIM attribute path (title, addresses[type eq "work"].country, urn:…:User:badge) or a provider field (google:orgUnitPath); an empty source is a name not mapped yet',
      ),
    setupLink: z
      .strictObject({
        enabled: z.boolean().default(true).describe('Keep a working setup link; false revokes it'),
        expiresIn: celRules(
          z
            .string()
            .max(7)
            .regex(SETUP_LINK_DURATION, 'expiresIn must be a duration such as 72h or 7d')
            .refine((d) => durationSeconds(d) <= MAX_LINK_TTL_S, 'expiresIn must be at most 30d'),
          [
            {
              rule: "self.endsWith('d') ? int(self.substring(0, self.size() - 1)) <= 30 : duration(self) <= duration('720h')",
              message: 'expiresIn must be at most 30d',
            },
          ],
        )
          .default('7d')
          .describe('How long each link works (e.g. 72h, 7d; at most 30d); a new one is issued when it ends'),
      })
      .optional()
      .describe(
        "A setup link for the customer's IT admin, kept in the Secret <name>-setup (key url); never in the status",
      ),
  })
  // Refinements for the operator, CEL for the API server: the same two rules.
  .refine((spec) => spec.type !== 'google' || spec.google !== undefined, { message: GOOGLE_REQUIRED, path: ['google'] })
  .refine((spec) => spec.google === undefined || spec.type === 'google', {
    message: GOOGLE_FORBIDDEN,
    path: ['google'],
  })
  .refine((spec) => spec.microsoft === undefined || spec.type === 'microsoft-entra', {
    message: MICROSOFT_FORBIDDEN,
    path: ['microsoft'],
  })
  .refine((spec) => !isHrisType(spec.type) || spec.hris !== undefined, { message: HRIS_REQUIRED, path: ['hris'] })
  .refine((spec) => spec.hris === undefined || isHrisType(spec.type), { message: HRIS_FORBIDDEN, path: ['hris'] })
  .meta({
    'x-kubernetes-validations': [
      {
        rule: "self.type != 'google' || has(self.google)",
        message: GOOGLE_REQUIRED,
        fieldPath: '.google',
        reason: 'FieldValueRequired',
      },
      {
        rule: "!has(self.google) || self.type == 'google'",
        message: GOOGLE_FORBIDDEN,
        fieldPath: '.google',
        reason: 'FieldValueForbidden',
      },
      {
        rule: "!has(self.microsoft) || self.type == 'microsoft-entra'",
        message: MICROSOFT_FORBIDDEN,
        fieldPath: '.microsoft',
        reason: 'FieldValueForbidden',
      },
      {
        rule: `!(self.type in ${HRIS_CEL_TYPES}) || has(self.hris)`,
        message: HRIS_REQUIRED,
        fieldPath: '.hris',
        reason: 'FieldValueRequired',
      },
      {
        rule: `!has(self.hris) || self.type in ${HRIS_CEL_TYPES}`,
        message: HRIS_FORBIDDEN,
        fieldPath: '.hris',
        reason: 'FieldValueForbidden',
      },
    ],
  })
  .describe('Desired state of a directory connection');

export type DirectoryConnectionSpec = z.output<typeof directoryConnectionSpec>;

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;

/** metav1.Condition. */
export const condition = z.strictObject({
  type: z.string().min(1).max(316),
  status: z.enum(CONDITION_STATUSES),
  observedGeneration: z.int().min(0).optional(),
  lastTransitionTime: z.string().max(64).meta({ format: 'date-time' }),
  reason: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/),
  message: z.string().max(32768),
});
export type Condition = z.output<typeof condition>;

export const directoryConnectionStatus = z
  .strictObject({
    directoryId: z.string().max(64).optional().describe('Id of the stored directory (the resource uid)'),
    scimEndpoint: z.string().max(4096).optional().describe('SCIM base URL to give the identity provider'),
    secretName: z.string().max(253).optional().describe('Secret holding the SCIM endpoint and bearer token'),
    observedGeneration: z.int().min(0).optional().describe('Generation of the spec last reconciled successfully'),
    conditions: z
      .array(condition)
      .max(8)
      .optional()
      // Atomic, not a map keyed by type: only the operator writes the status, always the whole list (a merge
      // patch replaces lists anyway), so per-condition ownership buys nothing, while the API server's managed
      // fields would track each condition's every field on every object, which makes every status write dearer
      // (docs/design/performance.md, "The operator at scale").
      .meta({ 'x-kubernetes-list-type': 'atomic' }),
  })
  .describe('Observed state of a directory connection');
export type DirectoryConnectionStatus = z.output<typeof directoryConnectionStatus>;

/** The REST resource, for the client and the informer. */
export const DIRECTORY_CONNECTIONS = { group: GROUP, version: VERSION, plural: PLURAL } as const;

/**
 * A DirectoryConnection as the API server returns it: the spec is validated with `directoryConnectionSpec` before use.
 */
export interface DirectoryConnection extends KubeObject {
  spec?: unknown;
  status?: DirectoryConnectionStatus;
}
