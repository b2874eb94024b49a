/**
 * The three-step authorization of the management API (authorization URL, code exchange, set tokens), Google's part of
 * the browser flow (providers/oauth: its consent page, and steps 2 and 3 at the callback), and the service-account
 * alternative. The answers carry only the documented fields; a service account's key is never shown back.
 */
import { z } from 'zod';
import { parseInput, type DirectoryService } from '../../core/directories.js';
import { oauthToken } from '../../core/directory-input.js';
import { ForbiddenError, ValidationError } from '../../core/errors.js';
import type { Directory } from '../../core/model.js';
import type { DirectoryStore } from '../../core/store-port.js';
import type { BrowserFlows, FlowProvider } from '../oauth/browser-flows.js';
import { oauthClient } from './credentials.js';
import { GoogleCredentialsError, GoogleNotConfiguredError, NotGoogleDirectoryError } from './errors.js';
import { toGoogleError } from './google-retry.js';
import { GOOGLE_SCOPES, type GoogleOptions } from './options.js';
import { describeServiceAccount, parseServiceAccount, type ServiceAccounts } from './service-account.js';
import type { SyncStatuses } from './sync-status.js';
import { checkWorkspace } from './workspace-check.js';

/** The flow's name in providers/oauth. */
export const GOOGLE_FLOW = 'google';
/** Besides the directory scopes, the consent asks for an ID token naming the account (workspace check). */
const CONSENT_SCOPES = [...GOOGLE_SCOPES, 'openid', 'email'];

/** The token set step 2 answers (docs/guides/google-workspace.md). */
export interface TokenSet {
  access_token: string;
  refresh_token: string;
  scope: string;
  token_type: string;
  expiry_date: number;
}

/** What step 3 answers (only these fields of the directory). */
export type GoogleDirectoryView = Pick<
  Directory,
  'id' | 'name' | 'tenant' | 'product' | 'type' | 'google_domain' | 'google_access_token' | 'google_refresh_token'
>;

const token = (field: string) => oauthToken(field).min(1, `${field} must not be empty`);
export const codeInput = z.strictObject({ code: token('code') }).meta({ id: 'GoogleCodeInput' });
export const tokenInput = z
  .strictObject({ access_token: token('access_token'), refresh_token: token('refresh_token') })
  .meta({ id: 'GoogleTokensInput' });
const redirectInput = z
  .url({ protocol: /^https?$/, error: 'redirect_url must be an http(s) URL' })
  .max(2048)
  .optional();

export class GoogleAuthorization implements FlowProvider {
  constructor(
    private readonly deps: {
      options: GoogleOptions;
      directories: DirectoryService;
      store: Pick<DirectoryStore, 'updateDirectory'>;
      statuses: SyncStatuses;
      serviceAccounts: ServiceAccounts;
      flows: BrowserFlows;
    },
  ) {}

  /**
   * Step 1: where to send the admin: a link to our start route, which binds the flow to the browser that opens
   * it first and sends it on to Google's consent page. `redirectUrl`: where the callback sends the browser after.
   */
  async authorizationUrl(directoryId: string, redirectUrl?: unknown): Promise<{ authorizationUrl: string }> {
    const directory = await this.googleDirectory(directoryId);
    const returnTo = parseRedirect(redirectUrl);
    this.configured();
    const link = await this.deps.flows.link({
      provider: GOOGLE_FLOW,
      directoryId: directory.id,
      ...(returnTo && { returnTo }),
    });
    return { authorizationUrl: link.url };
  }

  /** Google's consent page for a flow started in a browser (FlowProvider). */
  async consent(directoryId: string, state: string): Promise<{ url: string }> {
    const directory = await this.googleDirectory(directoryId);
    const url = oauthClient(this.configured()).generateAuthUrl({
      access_type: 'offline',
      // Google sends a refresh token only on consent: ask for it every time, so re-authorizing always yields one.
      prompt: 'consent',
      scope: CONSENT_SCOPES,
      state,
      // A hint for Google's account chooser only: the workspace is checked on the ID token (exchangeCode).
      ...(directory.google_domain && { hd: directory.google_domain }),
    });
    return { url };
  }

  /** The callback of a flow (FlowProvider): Google's refusal, or steps 2 and 3. */
  async complete(directoryId: string, query: Record<string, unknown>): Promise<void> {
    if (query.error !== undefined) {
      throw new GoogleCredentialsError(`Google did not authorize the directory: ${String(query.error).slice(0, 100)}`);
    }
    const tokens = await this.exchangeCode(directoryId, { code: query.code });
    await this.setToken(directoryId, { access_token: tokens.access_token, refresh_token: tokens.refresh_token });
  }

  /**
   * Step 2: the authorization code for the token set, once the consenting account is known to be of the
   * directory's workspace (when it has a `google_domain`).
   */
  async exchangeCode(directoryId: string, input: unknown): Promise<TokenSet> {
    const directory = await this.googleDirectory(directoryId);
    const { code } = parseInput(codeInput, input);
    const client = oauthClient(this.configured());
    let tokens;
    try {
      ({ tokens } = await client.getToken(code));
    } catch (err) {
      const mapped = toGoogleError(err, 'exchanging the authorization code');
      throw mapped instanceof GoogleCredentialsError
        ? new GoogleCredentialsError(
            'Google refused the authorization code (invalid, expired or already used): start again',
            { cause: mapped.cause },
          )
        : mapped;
    }
    if (!tokens.access_token || !tokens.refresh_token) {
      throw new GoogleCredentialsError(
        'Google returned no refresh token: authorize again (the consent screen must be shown)',
      );
    }
    if (directory.google_domain)
      checkWorkspace(tokens.id_token, { clientId: this.configured().clientId, domain: directory.google_domain });
    return {
      access_token: tokens.access_token,
      refresh_token: tokens.refresh_token,
      scope: tokens.scope ?? GOOGLE_SCOPES.join(' '),
      token_type: tokens.token_type ?? 'Bearer',
      expiry_date: tokens.expiry_date ?? Date.now() + 3_600_000,
    };
  }

  /**
   * Step 3: the tokens the sync uses from now on (they clear a revoked-token error). Also on a directory the
   * operator manages: tokens come from an admin's consent, never from its spec.
   */
  async setToken(directoryId: string, input: unknown): Promise<GoogleDirectoryView> {
    const current = await this.googleDirectory(directoryId);
    const t = parseInput(tokenInput, input);
    const d: Directory = {
      ...current,
      google_access_token: t.access_token,
      google_refresh_token: t.refresh_token,
      updated_at: new Date().toISOString(),
    };
    await this.deps.store.updateDirectory(d);
    await this.deps.statuses.reauthorized(directoryId);
    return {
      id: d.id,
      name: d.name,
      tenant: d.tenant,
      product: d.product,
      type: d.type,
      ...(d.google_domain !== undefined && { google_domain: d.google_domain }),
      google_access_token: t.access_token,
      google_refresh_token: t.refresh_token,
    };
  }

  /** The service-account alternative: a key and the admin to act as. Answers without the key. */
  async setServiceAccount(directoryId: string, input: unknown) {
    const directory = await this.googleDirectory(directoryId);
    if (directory.managed_by) {
      throw new ForbiddenError(
        `Directory ${directoryId} is managed by ${directory.managed_by}; set spec.google.serviceAccountSecretRef of its DirectoryConnection instead`,
      );
    }
    const account = parseServiceAccount(input);
    await this.deps.serviceAccounts.put(directoryId, account);
    await this.deps.statuses.reauthorized(directoryId);
    return { id: directoryId, ...describeServiceAccount(account) };
  }

  private async googleDirectory(id: string): Promise<Directory> {
    const directory = await this.deps.directories.get(id);
    if (directory.type !== 'google') throw new NotGoogleDirectoryError(id);
    return directory;
  }

  private configured(): GoogleOptions & { clientId: string; clientSecret: string } {
    const { clientId, clientSecret } = this.deps.options;
    if (!clientId || !clientSecret) throw new GoogleNotConfiguredError();
    return { ...this.deps.options, clientId, clientSecret };
  }
}

function parseRedirect(value: unknown): string | undefined {
  const parsed = redirectInput.safeParse(value === '' ? undefined : value);
  if (!parsed.success) throw new ValidationError('redirect_url must be an http(s) URL', 'redirect_url');
  return parsed.data;
}
