/**
 * The Google auth client of one directory: an OAuth2Client holding the admin's tokens, or a JWT client acting
 * for the admin through a service account. Tokens the client refreshes are saved back on the directory (the
 * peer refreshed in memory only, so every run refreshed again, and a lost token was never noticed).
 */
import { JWT, OAuth2Client } from 'google-auth-library';
import type { Directory } from '../../core/model.js';
import type { DirectoryStore } from '../../core/store-port.js';
import { OAUTH_TOKEN_PATTERN } from '../../core/directory-input.js';
import { GoogleCredentialsError, NotAuthorizedError } from './errors.js';
import { GOOGLE_DEFAULTS, GOOGLE_SCOPES, type GoogleOptions } from './options.js';
import type { ServiceAccount, ServiceAccounts } from './service-account.js';

export type GoogleAuthClient = OAuth2Client;

/**
 * The expiry a stored access token is given (we do not store Google's): long enough not to refresh a token that
 * works, and a 401 refreshes it anyway (`expireToken`). Without an expiry, the client would refresh on every 403
 * too, rate limits included.
 */
const ASSUMED_VALID_MS = 30 * 60_000;

/** The OAuth client of this server, pointed at the configured endpoints (a fake Google in tests). */
export function oauthClient(options: GoogleOptions): OAuth2Client {
  return new OAuth2Client({
    ...(options.clientId !== undefined && { clientId: options.clientId }),
    ...(options.clientSecret !== undefined && { clientSecret: options.clientSecret }),
    redirectUri: options.redirectUrl,
    endpoints: { oauth2TokenUrl: options.tokenUrl, oauth2AuthBaseUrl: options.authUrl },
  });
}

/** Marks the client's access token expired: its next request refreshes it first (and emits `tokens`). */
export function expireToken(client: GoogleAuthClient): void {
  client.credentials = { ...client.credentials, expiry_date: 1 };
}

/** A JWT (service-account) client; its token URL is Google's own unless DSYNC_GOOGLE_TOKEN_URL says otherwise. */
function serviceAccountClient(account: ServiceAccount, tokenUrl: string): JWT {
  const jwt = new JWT({
    email: account.clientEmail,
    key: account.privateKey,
    ...(account.privateKeyId !== undefined && { keyId: account.privateKeyId }),
    subject: account.adminEmail,
    scopes: [...GOOGLE_SCOPES],
  });
  if (tokenUrl !== GOOGLE_DEFAULTS.tokenUrl) {
    // The JWT client has Google's token URL built in; its transporter is the one seam to point it elsewhere.
    jwt.transporter.interceptors.request.add({
      resolved: async (request) => {
        if (String(request.url) === GOOGLE_DEFAULTS.tokenUrl) request.url = new URL(tokenUrl);
        return request;
      },
    });
  }
  return jwt;
}

export class CredentialSource {
  constructor(
    private readonly deps: {
      options: GoogleOptions;
      store: Pick<DirectoryStore, 'saveGoogleTokens'>;
      serviceAccounts: ServiceAccounts;
    },
  ) {}

  /**
   * The client for one run. `saved` settles once every refreshed token is stored: the run awaits it before it
   * reports, so a token refreshed during a run is never lost.
   */
  async clientFor(directory: Directory): Promise<{ client: GoogleAuthClient; saved: () => Promise<void> }> {
    const account = await this.deps.serviceAccounts.get(directory.id);
    if (account) return { client: serviceAccountClient(account, this.deps.options.tokenUrl), saved: async () => {} };
    if (!directory.google_refresh_token && !directory.google_access_token) throw new NotAuthorizedError(directory.id);
    // Stored before tokens were checked at input: no request could carry it, so no retry would help.
    if (
      ![directory.google_access_token, directory.google_refresh_token].every((t) => OAUTH_TOKEN_PATTERN.test(t ?? ''))
    ) {
      throw new GoogleCredentialsError(
        'The stored Google tokens are not valid token text (visible ASCII): authorize again',
      );
    }
    const client = oauthClient(this.deps.options);
    client.setCredentials({
      ...(directory.google_access_token && { access_token: directory.google_access_token }),
      ...(directory.google_refresh_token && { refresh_token: directory.google_refresh_token }),
      expiry_date: Date.now() + ASSUMED_VALID_MS,
    });
    let pending: Promise<void> = Promise.resolve();
    // The refresh token stored now, as far as this run knows: Google may rotate it on a refresh.
    let stored = directory.google_refresh_token;
    client.on('tokens', (tokens) => {
      if (!tokens.access_token) return;
      const refreshed = {
        accessToken: tokens.access_token,
        ...(tokens.refresh_token && { refreshToken: tokens.refresh_token }),
      };
      // Those fields alone, unless an admin set other tokens meanwhile (theirs win): a read-then-write of the
      // whole directory would undo an edit of another field made during the run.
      pending = pending.then(async () => {
        if (await this.deps.store.saveGoogleTokens(directory.id, stored, refreshed, new Date().toISOString()))
          stored = refreshed.refreshToken ?? stored;
      });
    });
    return { client, saved: () => pending };
  }
}
