/**
 * Service account with domain-wide delegation: the path that needs no browser (GitOps). The customer's super
 * admin authorizes the service account's client id for the three scopes; we mint tokens as `admin_email`.
 * The key is kept in its own per-directory record, never in the directory object, so it appears in no list,
 * status, event or log.
 */
import { z } from 'zod';
import { parseInput } from '../../core/directories.js';
import type { PullSyncStore } from '../../core/store-port.js';
import { SyncRecord } from '../pull/sync-record.js';

/** The JSON key file Google Cloud gives for a service account (only the fields we use are kept). */
const keyFile = z.looseObject({
  type: z.literal('service_account', { error: 'key.type must be "service_account" (a Google Cloud JSON key)' }),
  client_email: z.email({ error: 'key.client_email must be an email address' }).max(320),
  private_key: z
    .string({ error: 'key.private_key is required' })
    .max(8192)
    .refine((v) => v.includes('PRIVATE KEY-----'), 'key.private_key must be a PEM private key'),
  private_key_id: z.string().max(200).optional(),
  client_id: z.string().max(200).optional(),
});

export const serviceAccountInput = z
  .strictObject({
    /** The key file as an object, or as its JSON text (what a Kubernetes Secret holds). */
    key: z.preprocess((value, ctx) => {
      if (typeof value !== 'string') return value;
      try {
        if (value.length > 16_384) throw new Error('too long');
        return JSON.parse(value) as unknown;
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: 'key must be a service-account JSON key (not valid JSON, or over 16 KB)',
        });
        return z.NEVER;
      }
    }, keyFile),
    admin_email: z.email({ error: 'admin_email must be the email of a Workspace admin to act as' }).max(320),
  })
  .meta({ id: 'GoogleServiceAccountInput' });

export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  clientId?: string;
  adminEmail: string;
}

/** What the API shows of a service account: never the key. */
export const describeServiceAccount = (sa: ServiceAccount) => ({
  client_email: sa.clientEmail,
  admin_email: sa.adminEmail,
  ...(sa.clientId !== undefined && { client_id: sa.clientId }),
});

export function parseServiceAccount(input: unknown): ServiceAccount {
  const { key, admin_email } = parseInput(serviceAccountInput, input);
  return {
    clientEmail: key.client_email,
    privateKey: key.private_key,
    ...(key.private_key_id !== undefined && { privateKeyId: key.private_key_id }),
    ...(key.client_id !== undefined && { clientId: key.client_id }),
    adminEmail: admin_email,
  };
}

/** The directory's service account; `put` with null removes it. */
export class ServiceAccounts extends SyncRecord<ServiceAccount> {
  constructor(store: Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>) {
    super(store, 'google-service-account');
  }
}
