/**
 * Connecting a tenant: the customer's admin grants our multi-tenant app its read-only application permissions
 * at Microsoft's admin-consent URL (`/{tenant|organizations}/v2.0/adminconsent`, the Graph resource's
 * `.default` scope), and comes back to our callback with `admin_consent=True&tenant=<id>` or an `error`.
 * This is Entra's part of the browser flow (providers/oauth): the flow's state is single-use and bound to the
 * browser that opened the link; here, the consent page and the callback's checks. The tenant is checked against
 * the one the directory names, if it names one, and a consent is proved by getting a token for the tenant
 * before the directory is connected: nothing is stored for a refusal, another tenant or an unproved grant.
 */
import { z } from 'zod';
import type { DirectoryService } from '../../core/directories.js';
import type { Directory } from '../../core/model.js';
import type { DirectoryStore } from '../../core/store-port.js';
import { ValidationError } from '../../core/errors.js';
import { microsoftTenantId } from '../../core/directory-input.js';
import type { BrowserFlows, FlowProvider } from '../oauth/browser-flows.js';
import { ConsentRefusedError, MicrosoftNotConfiguredError, NotMicrosoftDirectoryError } from './errors.js';
import { graphScope, type MicrosoftOptions } from './options.js';
import type { MicrosoftSyncStatuses } from './sync-status.js';
import type { GraphTokens } from './tokens.js';

/** The flow's name in providers/oauth. */
export const MICROSOFT_FLOW = 'microsoft';

const redirectInput = z.url({ protocol: /^https?$/, error: 'redirect_url must be an http(s) URL' }).max(2048).optional();

export class AdminConsent implements FlowProvider {
  constructor(
    private readonly deps: {
      options: MicrosoftOptions;
      directories: DirectoryService;
      store: Pick<DirectoryStore, 'updateDirectory'>;
      statuses: MicrosoftSyncStatuses;
      tokens: GraphTokens;
      flows: BrowserFlows;
    },
  ) {}

  /**
   * Where to send the tenant's admin: a single-use link to our start route, which binds the flow to the browser
   * that opens it first and sends it on to Microsoft's admin-consent page. `redirectUrl`: where the callback
   * sends the browser afterwards.
   */
  async adminConsentUrl(directoryId: string, redirectUrl?: unknown): Promise<{ adminConsentUrl: string }> {
    const directory = await this.directory(directoryId);
    const parsed = redirectInput.safeParse(redirectUrl === '' ? undefined : redirectUrl);
    if (!parsed.success) throw new ValidationError('redirect_url must be an http(s) URL', 'redirect_url');
    this.configured();
    const link = await this.deps.flows.link({ provider: MICROSOFT_FLOW, directoryId: directory.id, ...(parsed.data && { returnTo: parsed.data }) });
    return { adminConsentUrl: link.url };
  }

  /** Microsoft's admin-consent page for a flow started in a browser (FlowProvider). */
  async consent(directoryId: string, state: string): Promise<{ url: string }> {
    const directory = await this.directory(directoryId);
    const { authorityUrl, clientId, graphUrl, redirectUrl } = this.configured();
    const url = new URL(`${new URL(authorityUrl).origin}/${directory.microsoft_tenant_id ?? 'organizations'}/v2.0/adminconsent`);
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('scope', graphScope(graphUrl));
    url.searchParams.set('redirect_uri', redirectUrl);
    url.searchParams.set('state', state);
    return { url: url.toString() };
  }

  /** The callback of a flow (FlowProvider): the admin's answer and the tenant checked, the consent proved, connected. */
  async complete(directoryId: string, query: Record<string, unknown>): Promise<string> {
    const directory = await this.directory(directoryId);
    if (query.error !== undefined) {
      const why = String(query.error_description ?? query.error).split(/\r?\n| Trace ID:/)[0]!.slice(0, 200);
      throw new ConsentRefusedError(`The admin did not grant consent: ${why}`);
    }
    const tenant = microsoftTenantId.safeParse(query.tenant);
    if (String(query.admin_consent).toLowerCase() !== 'true' || !tenant.success) {
      throw new ConsentRefusedError('The consent answer names no tenant: start again from the admin-consent URL');
    }
    if (directory.microsoft_tenant_id && directory.microsoft_tenant_id !== tenant.data) {
      throw new ConsentRefusedError(
        `The consent came from tenant ${tenant.data}, not from the directory's tenant ${directory.microsoft_tenant_id}: ` +
          `sign in as an administrator of ${directory.microsoft_tenant_id}. Nothing was saved`,
      );
    }
    // Proof that the grant works (Entra answers for the tenant's service principal), before anything is stored.
    await this.deps.tokens.token(tenant.data, true);
    const current = await this.deps.directories.get(directory.id);
    await this.deps.store.updateDirectory({ ...current, microsoft_tenant_id: tenant.data, updated_at: new Date().toISOString() });
    await this.deps.statuses.reauthorized(directory.id);
    return `Directory ${directory.id} is connected to tenant ${tenant.data}; its first sync starts now. You can close this window.`;
  }

  private configured(): MicrosoftOptions & { clientId: string } {
    const { clientId, clientSecret, certificate } = this.deps.options;
    if (!clientId || !(clientSecret ?? certificate)) throw new MicrosoftNotConfiguredError();
    return { ...this.deps.options, clientId };
  }

  private async directory(id: string): Promise<Directory> {
    const directory = await this.deps.directories.get(id);
    if (directory.type !== 'microsoft-entra') throw new NotMicrosoftDirectoryError(id);
    return directory;
  }
}
