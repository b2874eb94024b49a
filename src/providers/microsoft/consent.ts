/**
 * Connecting a tenant, in two steps at Microsoft in one browser flow (providers/oauth: single-use states, bound to
 * the browser that opened the link):
 * 1. the admin signs in (OpenID Connect, sign-in.ts): the ID token, verified, proves which tenant they signed in to;
 * 2. the admin grants our multi-tenant app its read-only application permissions at Microsoft's admin-consent
 *    page of *that* tenant (`/{tenant}/v2.0/adminconsent`, the Graph resource's `.default` scope), and comes back
 *    with `admin_consent=True&tenant=<id>` or an `error`.
 * The tenant in that redirect is only a claim (anyone can type the URL with their own state and another
 * customer's tenant id, and every tenant that consented to the app gives us a token): it must be the tenant the
 * sign-in proved, and the directory's if it names one. The grant is then proved by getting a token for the tenant,
 * and only then is the directory connected: nothing is stored for a refusal, another tenant or an unproved grant.
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
import { AdminSignIn, firstSentence, signInStep } from './sign-in.js';
import type { MicrosoftSyncStatuses } from './sync-status.js';
import type { GraphTokens } from './tokens.js';

/** The flow's name in providers/oauth. */
export const MICROSOFT_FLOW = 'microsoft';

const redirectInput = z
  .url({ protocol: /^https?$/, error: 'redirect_url must be an http(s) URL' })
  .max(2048)
  .optional();

/** What the flow carries from step to step: the sign-in's secrets, then the tenant it proved. */
const step = z.discriminatedUnion('step', [
  signInStep.extend({ step: z.literal('sign-in') }),
  z.object({ step: z.literal('consent'), tenantId: z.string(), username: z.string().optional() }),
]);
type Step = z.infer<typeof step>;

/** Entra's first sentence (`AADSTS…: …`) of an error the browser brought back. */
const reason = (query: Record<string, unknown>) => firstSentence(String(query.error_description ?? query.error));

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
    const link = await this.deps.flows.link({
      provider: MICROSOFT_FLOW,
      directoryId: directory.id,
      ...(parsed.data && { returnTo: parsed.data }),
    });
    return { adminConsentUrl: link.url };
  }

  /** The flow's page at Microsoft (FlowProvider): the sign-in first, then the admin consent of the proved tenant. */
  async consent(directoryId: string, state: string, carried?: string): Promise<{ url: string; data: string }> {
    const directory = await this.directory(directoryId);
    const options = this.configured();
    if (carried === undefined) {
      const page = new AdminSignIn(options).page(directory.microsoft_tenant_id ?? 'organizations', state);
      return { url: page.url, data: JSON.stringify({ step: 'sign-in', ...page.step } satisfies Step) };
    }
    const { clientId, authorityUrl, graphUrl, redirectUrl } = options;
    const { tenantId } = consentStep(carried);
    const url = new URL(`${new URL(authorityUrl).origin}/${tenantId}/v2.0/adminconsent`);
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('scope', graphScope(graphUrl));
    url.searchParams.set('redirect_uri', redirectUrl);
    url.searchParams.set('state', state);
    return { url: url.toString(), data: carried };
  }

  /**
   * A callback of the flow (FlowProvider): the sign-in proved (on to the consent), or the consent checked and
   * connected.
   */
  async complete(
    directoryId: string,
    query: Record<string, unknown>,
    data?: string,
  ): Promise<string | { next: string }> {
    const directory = await this.directory(directoryId);
    const carried = step.parse(JSON.parse(data ?? '{}'));
    if (carried.step === 'sign-in') {
      if (query.error !== undefined)
        throw new ConsentRefusedError(`The sign-in to Microsoft did not complete: ${reason(query)}`);
      if (typeof query.code !== 'string' || query.code === '')
        throw new ConsentRefusedError('The sign-in answer carries no code: start again from the admin-consent URL');
      const signedIn = await new AdminSignIn(this.configured()).prove(carried, query.code);
      this.sameTenant(directory, signedIn.tenantId, 'signed in to');
      return {
        next: JSON.stringify({
          step: 'consent',
          tenantId: signedIn.tenantId,
          ...(signedIn.username && { username: signedIn.username }),
        } satisfies Step),
      };
    }
    if (query.error !== undefined) throw new ConsentRefusedError(`The admin did not grant consent: ${reason(query)}`);
    const tenant = microsoftTenantId.safeParse(query.tenant);
    if (String(query.admin_consent).toLowerCase() !== 'true' || !tenant.success) {
      throw new ConsentRefusedError('The consent answer names no tenant: start again from the admin-consent URL');
    }
    if (tenant.data !== carried.tenantId) {
      throw new ConsentRefusedError(
        `The consent names tenant ${tenant.data}, but the admin signed in to tenant ${carried.tenantId}: ` +
          `the consent must come from the tenant of the signed-in admin. Nothing was saved`,
      );
    }
    this.sameTenant(directory, tenant.data, 'consented from');
    // Proof that the grant works (Entra answers for the tenant's service principal), before anything is stored.
    await this.deps.tokens.token(tenant.data, true);
    const current = await this.deps.directories.get(directory.id);
    await this.deps.store.updateDirectory({
      ...current,
      microsoft_tenant_id: tenant.data,
      updated_at: new Date().toISOString(),
    });
    await this.deps.statuses.reauthorized(directory.id);
    const by = carried.username ? ` by ${carried.username}` : '';
    return `Directory ${directory.id} is connected to tenant ${tenant.data}${by}; its first sync starts now. You can close this window.`;
  }

  /** A directory that names its tenant takes only that one. */
  private sameTenant(directory: Directory, tenantId: string, how: string): void {
    if (directory.microsoft_tenant_id && directory.microsoft_tenant_id !== tenantId) {
      throw new ConsentRefusedError(
        `The admin ${how} tenant ${tenantId}, not the directory's tenant ${directory.microsoft_tenant_id}: ` +
          `sign in as an administrator of ${directory.microsoft_tenant_id}. Nothing was saved`,
      );
    }
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

/** The consent step's data (the sign-in proved its tenant); anything else is a flow that did not sign in. */
function consentStep(carried: string): Extract<Step, { step: 'consent' }> {
  const parsed = step.parse(JSON.parse(carried));
  if (parsed.step !== 'consent')
    throw new ConsentRefusedError('The admin has not signed in: start again from the admin-consent URL');
  return parsed;
}
