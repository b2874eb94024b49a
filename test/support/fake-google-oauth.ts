/**
 * The OAuth side of the fake Google: the consent endpoint (approves at once and redirects with a code), and the
 * token endpoint for the three grants dsync uses — authorization code, refresh token, JWT bearer (service account
 * with domain-wide delegation, the assertion's RS256 signature checked against the registered public key).
 * Answers have Google's shapes, errors included (`{error, error_description}`).
 */
import { createVerify, randomBytes } from 'node:crypto';

export const FAKE_CLIENT = { id: 'fake-client-id.apps.googleusercontent.com', secret: 'fake-client-secret' };
const SCOPE = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.member.readonly',
].join(' ');

export interface TokenReply {
  status: number;
  body: Record<string, unknown>;
}

const oauthError = (status: number, error: string, description: string): TokenReply => ({
  status,
  body: { error, error_description: description },
});

const token = (prefix: string) => `${prefix}.${randomBytes(12).toString('base64url')}`;

export class FakeOAuth {
  /** Access token → expiry (epoch ms). */
  readonly accessTokens = new Map<string, number>();
  readonly refreshTokens = new Map<string, { revoked: boolean }>();
  private readonly codes = new Map<string, { redirectUri: string; idToken?: string }>();
  /**
   * The account that approves the next consents: its e-mail and its workspace's primary domain (`hd`, none for a
   * consumer account).
   */
  consenter: { email: string; hd?: string } = { email: 'admin@example.com', hd: 'example.com' };
  /** Service-account email → PEM public key, and the admins it may act as. */
  private readonly serviceAccounts = new Map<string, { publicKey: string; admins: Set<string> }>();
  accessTokenLifetimeS = 3600;
  grants = { authorization_code: 0, refresh_token: 0, jwt_bearer: 0 };

  /** Mints an access token directly (tests that skip the flow). */
  issueAccessToken(lifetimeS = this.accessTokenLifetimeS): string {
    const t = token('ya29');
    this.accessTokens.set(t, Date.now() + lifetimeS * 1000);
    return t;
  }

  issueRefreshToken(): string {
    const t = token('1//rt');
    this.refreshTokens.set(t, { revoked: false });
    return t;
  }

  /** A token set as a consent would give: a fresh access token and refresh token. */
  issueTokens(): { access_token: string; refresh_token: string } {
    return { access_token: this.issueAccessToken(), refresh_token: this.issueRefreshToken() };
  }

  revoke(refreshToken: string): void {
    this.refreshTokens.set(refreshToken, { revoked: true });
  }

  /** Every access token issued so far expires now (the next API call answers 401). */
  expireAccessTokens(): void {
    for (const t of this.accessTokens.keys()) this.accessTokens.set(t, 0);
  }

  validAccess(header: string | undefined): boolean {
    const t = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
    const expires = t ? this.accessTokens.get(t) : undefined;
    return expires !== undefined && expires > Date.now();
  }

  addServiceAccount(email: string, publicKey: string, admins: string[]): void {
    this.serviceAccounts.set(email, { publicKey, admins: new Set(admins) });
  }

  /** The consent screen, approved at once: where Google would send the admin's browser. */
  consent(query: URLSearchParams): { status: number; location?: string; body?: string } {
    const redirectUri = query.get('redirect_uri');
    if (query.get('client_id') !== FAKE_CLIENT.id || !redirectUri)
      return { status: 400, body: 'Error 400: invalid_request' };
    const code = token('4/code');
    const openid = (query.get('scope') ?? '').split(' ').includes('openid');
    this.codes.set(code, { redirectUri, ...(openid && { idToken: this.idToken() }) });
    const to = new URL(redirectUri);
    to.searchParams.set('code', code);
    to.searchParams.set('state', query.get('state') ?? '');
    to.searchParams.set('scope', query.get('scope') ?? '');
    return { status: 302, location: to.toString() };
  }

  /** The token endpoint (form-encoded POST); `authorization` is the Basic header, if the client sent one. */
  tokenEndpoint(form: URLSearchParams, authorization?: string): TokenReply {
    const grant = form.get('grant_type');
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') return this.jwtBearer(form.get('assertion') ?? '');
    const basic = authorization?.startsWith('Basic ')
      ? Buffer.from(authorization.slice(6), 'base64').toString().split(':')
      : [];
    const clientId = form.get('client_id') ?? basic[0];
    const clientSecret = form.get('client_secret') ?? basic[1];
    if (clientId !== FAKE_CLIENT.id || clientSecret !== FAKE_CLIENT.secret)
      return oauthError(401, 'invalid_client', 'Unauthorized');
    if (grant === 'authorization_code') {
      this.grants.authorization_code++;
      const code = this.codes.get(form.get('code') ?? '');
      if (!code || code.redirectUri !== form.get('redirect_uri'))
        return oauthError(400, 'invalid_grant', 'Bad Request');
      this.codes.delete(form.get('code')!);
      return this.tokens(this.issueRefreshToken(), code.idToken);
    }
    if (grant === 'refresh_token') {
      this.grants.refresh_token++;
      const rt = this.refreshTokens.get(form.get('refresh_token') ?? '');
      if (!rt || rt.revoked) return oauthError(400, 'invalid_grant', 'Token has been expired or revoked.');
      return this.tokens();
    }
    return oauthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant}`);
  }

  private tokens(refreshToken?: string, idToken?: string): TokenReply {
    return {
      status: 200,
      body: {
        access_token: this.issueAccessToken(),
        expires_in: this.accessTokenLifetimeS,
        scope: SCOPE,
        token_type: 'Bearer',
        ...(refreshToken && { refresh_token: refreshToken }),
        ...(idToken && { id_token: idToken }),
      },
    };
  }

  /** The consenter's ID token, as Google's token endpoint returns it (signed there; the fake's signature is junk). */
  private idToken(): string {
    const { email, hd } = this.consenter;
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: 'https://accounts.google.com',
      aud: FAKE_CLIENT.id,
      sub: `sub-${email}`,
      email,
      email_verified: true,
      ...(hd && { hd }),
      iat: now,
      exp: now + 3600,
    };
    const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}.${randomBytes(32).toString('base64url')}`;
  }

  private jwtBearer(assertion: string): TokenReply {
    this.grants.jwt_bearer++;
    const [header, payload, signature] = assertion.split('.');
    if (!header || !payload || !signature) return oauthError(400, 'invalid_grant', 'Invalid JWT');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
      iss?: string;
      sub?: string;
      exp?: number;
      scope?: string;
    };
    const account = this.serviceAccounts.get(claims.iss ?? '');
    const verifier = createVerify('RSA-SHA256').update(`${header}.${payload}`);
    if (!account || !verifier.verify(account.publicKey, Buffer.from(signature, 'base64url'))) {
      return oauthError(400, 'invalid_grant', 'Invalid JWT Signature.');
    }
    if (!claims.exp || claims.exp * 1000 < Date.now())
      return oauthError(400, 'invalid_grant', 'Invalid JWT: Token must be a short-lived token');
    if (!claims.sub || !account.admins.has(claims.sub)) {
      return oauthError(
        401,
        'unauthorized_client',
        'Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.',
      );
    }
    return this.tokens();
  }
}
