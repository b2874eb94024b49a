/**
 * Connecting a tenant: the customer's admin grants our multi-tenant app its read-only application permissions
 * at Microsoft's admin-consent URL (`/{tenant|organizations}/v2.0/adminconsent`, the Graph resource's
 * `.default` scope), and comes back to our callback with `admin_consent=True&tenant=<id>` or an `error`.
 * The state is signed, expiring, bound to the directory and single-use (its nonce is kept with the directory
 * and consumed by the callback); the tenant is checked against the one the directory names, if it names one.
 * A consent is then proved by getting a token for the tenant before the directory is connected.
 */
import { z } from 'zod';
import type { DirectoryService } from '../../core/directories.js';
import type { Directory } from '../../core/model.js';
import type { DirectoryStore, PullSyncStore } from '../../core/store-port.js';
import { ValidationError } from '../../core/errors.js';
import { StateSigner } from '../pull/oauth-state.js';
import { ConsentRefusedError, MicrosoftNotConfiguredError, NotMicrosoftDirectoryError } from './errors.js';
import { microsoftTenantId } from '../../core/directory-input.js';
import { graphScope, type MicrosoftOptions } from './options.js';
import type { MicrosoftSyncStatuses } from './sync-status.js';
import type { GraphTokens } from './tokens.js';

const redirectInput = z.url({ protocol: /^https?$/, error: 'redirect_url must be an http(s) URL' }).max(2048).optional();

/** The state a consent URL carries, kept (one per directory) until its callback consumes it. */
interface PendingConsent {
  nonce: string;
  expiresAt: number;
}

export class InvalidConsentStateError extends ValidationError {
  override name = 'InvalidConsentStateError';
  constructor(reason: string) {
    super(`Invalid admin-consent state: ${reason}; start again from the admin-consent URL`, 'state');
  }
}

export class AdminConsent {
  constructor(
    private readonly deps: {
      options: MicrosoftOptions;
      directories: DirectoryService;
      store: Pick<DirectoryStore, 'updateDirectory'> & Pick<PullSyncStore, 'getSyncRecord' | 'putSyncRecord'>;
      statuses: MicrosoftSyncStatuses;
      tokens: GraphTokens;
    },
  ) {}

  /** Where to send the tenant's admin. `redirectUrl`: where the callback sends the browser afterwards. */
  async adminConsentUrl(directoryId: string, redirectUrl?: unknown): Promise<{ adminConsentUrl: string }> {
    const directory = await this.directory(directoryId);
    const parsed = redirectInput.safeParse(redirectUrl === '' ? undefined : redirectUrl);
    if (!parsed.success) throw new ValidationError('redirect_url must be an http(s) URL', 'redirect_url');
    const { options } = this.deps;
    const signer = this.signer();
    const state = signer.sign(directory.id, parsed.data);
    const { nonce, expiresAt } = signer.verify(state);
    const pending: PendingConsent = { nonce, expiresAt };
    // A new URL replaces an older one's state: only the latest link works.
    await this.deps.store.putSyncRecord(directory.id, 'microsoft-consent', JSON.stringify(pending));
    const url = new URL(`${new URL(options.authorityUrl).origin}/${directory.microsoft_tenant_id ?? 'organizations'}/v2.0/adminconsent`);
    url.searchParams.set('client_id', options.clientId!);
    url.searchParams.set('scope', graphScope(options.graphUrl));
    url.searchParams.set('redirect_uri', options.redirectUrl);
    url.searchParams.set('state', state);
    return { adminConsentUrl: url.toString() };
  }

  /** The browser's return: checks the state (once), the admin's answer and the tenant, proves the consent, connects. */
  async callback(query: Record<string, unknown>): Promise<{ directoryId: string; tenantId: string; redirectUrl?: string }> {
    const state = this.signer().verify(query.state);
    await this.consume(state.directoryId, state.nonce);
    const directory = await this.directory(state.directoryId);
    if (query.error !== undefined) {
      const why = String(query.error_description ?? query.error).split(/\r?\n| Trace ID:/)[0]!.slice(0, 200);
      throw new ConsentRefusedError(`The admin did not grant consent: ${why}`);
    }
    const tenant = microsoftTenantId.safeParse(query.tenant);
    if (String(query.admin_consent).toLowerCase() !== 'true' || !tenant.success) {
      throw new ConsentRefusedError('The consent answer names no tenant: start again from the admin-consent URL');
    }
    if (directory.microsoft_tenant_id && directory.microsoft_tenant_id !== tenant.data) {
      throw new ConsentRefusedError(`The consent came from tenant ${tenant.data}, not from the directory's tenant ${directory.microsoft_tenant_id}`);
    }
    // Proof that the grant works (Entra answers for the tenant's service principal), before anything is stored.
    await this.deps.tokens.token(tenant.data, true);
    const current = await this.deps.directories.get(directory.id);
    await this.deps.store.updateDirectory({ ...current, microsoft_tenant_id: tenant.data, updated_at: new Date().toISOString() });
    await this.deps.statuses.reauthorized(directory.id);
    return { directoryId: directory.id, tenantId: tenant.data, ...(state.redirectUrl !== undefined && { redirectUrl: state.redirectUrl }) };
  }

  /** Where a callback with a valid state would send the browser (to report a failure there too). */
  redirectOf(state: unknown): string | undefined {
    try {
      return this.signer().verify(state).redirectUrl;
    } catch {
      return undefined;
    }
  }

  /** Single use: the state's nonce must be the directory's pending one, which is then gone. */
  private async consume(directoryId: string, nonce: string): Promise<void> {
    const json = await this.deps.store.getSyncRecord(directoryId, 'microsoft-consent');
    const pending = json ? (JSON.parse(json) as PendingConsent) : undefined;
    if (!pending || pending.nonce !== nonce) throw new InvalidConsentStateError('already used, or replaced by a newer URL');
    await this.deps.store.putSyncRecord(directoryId, 'microsoft-consent', null);
  }

  private async directory(id: string): Promise<Directory> {
    const directory = await this.deps.directories.get(id);
    if (directory.type !== 'microsoft-entra') throw new NotMicrosoftDirectoryError(id);
    return directory;
  }

  private signer(): StateSigner {
    const { clientId, clientSecret, certificate } = this.deps.options;
    const secret = clientSecret ?? certificate?.privateKey;
    if (!clientId || !secret) throw new MicrosoftNotConfiguredError();
    return new StateSigner(secret, 'dsync microsoft admin consent v1', (reason) => new InvalidConsentStateError(reason));
  }
}
