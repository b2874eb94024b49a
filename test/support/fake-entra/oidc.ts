/**
 * The OpenID Connect sign-in of the fake Microsoft identity platform, in the v2.0 endpoints' shapes
 * (https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc): `/{tenant}/oauth2/v2.0/authorize`
 * (the person at the browser signs in at once and is sent back with `code` and `state`, or an `error`), the
 * authorization-code grant at the token endpoint (single-use code, redirect URI and PKCE checked, the app's
 * credential checked by the caller), and an ID token signed RS256 with a key published at
 * `/{tenant}/discovery/v2.0/keys`, carrying Microsoft's claims
 * (https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference): `aud`, `iss` =
 * `<authority>/<tid>/v2.0`, `tid`, `oid`, `sub`, `preferred_username`, `name`, `nonce`, `iat`/`nbf`/`exp`, `ver`,
 * and `idp` only for a guest. Faults make the token wrong in one way each, for the tests of its checks.
 */
import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { Reply } from './authority.js';
import type { Tenant } from './tenant.js';

/** One way an ID token can be wrong. */
export type IdTokenFault =
  | 'bad-signature'
  | 'wrong-issuer'
  | 'wrong-audience'
  | 'expired'
  | 'wrong-nonce'
  | 'tid-mismatch'
  | 'consumer';

/** Who is at the browser when the fake's sign-in page is reached. */
export interface Account {
  /** The tenant signed in to (unset: the authority's `consent.tenantId`). */
  tenantId?: string;
  /** A guest: the tenant the account comes from (its `idp`). */
  homeTenantId?: string;
  decision: 'accept' | 'decline';
}

interface Code {
  tenantId: string;
  homeTenantId?: string;
  clientId: string;
  redirectUri: string;
  challenge: string | null;
  nonce: string | null;
  expires: number;
}

const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
const CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

export class FakeOidc {
  private readonly key: KeyObject;
  private readonly publicJwk: Record<string, unknown>;
  /** Signs what `bad-signature` sends under the published key's id. */
  private readonly otherKey: KeyObject;
  readonly kid = randomBytes(20).toString('base64url');
  private readonly codes = new Map<string, Code>();
  account: Account = { decision: 'accept' };
  idTokenFault: IdTokenFault | undefined;
  /** Requests of the sign-in (authorize), code redemptions, and key set reads. */
  readonly counts = { authorize: 0, redeemed: 0, keys: 0 };

  constructor(
    private readonly tenants: Map<string, Tenant>,
    private readonly base: () => string,
    private readonly app: { clientId: string; redirectUris: Set<string>; consentTenant: () => string | undefined },
  ) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.key = pair.privateKey;
    this.publicJwk = pair.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;
    this.otherKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  }

  /** GET /{tenant}/discovery/v2.0/keys */
  keys(): Reply {
    this.counts.keys++;
    return {
      status: 200,
      body: {
        keys: [
          {
            kty: 'RSA',
            use: 'sig',
            kid: this.kid,
            x5t: this.kid,
            ...this.publicJwk,
            issuer: `${this.base()}/{tenantid}/v2.0`,
          },
        ],
      },
    };
  }

  /** GET /{tenant}/oauth2/v2.0/authorize: the account signs in at once; the browser goes back with a code. */
  authorize(segment: string, q: URLSearchParams): Reply {
    this.counts.authorize++;
    const redirect = q.get('redirect_uri') ?? '';
    const page = (text: string): Reply => ({ status: 400, headers: { 'Content-Type': 'text/html' }, body: text });
    if (q.get('client_id') !== this.app.clientId)
      return page(`AADSTS700016: Application with identifier '${q.get('client_id')}' was not found.`);
    if (!this.app.redirectUris.has(redirect))
      return page(
        `AADSTS50011: The redirect URI '${redirect}' specified in the request does not match the redirect URIs configured for the application.`,
      );
    const to = new URL(redirect);
    const state = q.get('state');
    const back = (params: Record<string, string>): Reply => {
      for (const [k, v] of Object.entries(params)) to.searchParams.set(k, v);
      if (state !== null) to.searchParams.set('state', state);
      return { status: 302, headers: { Location: to.toString() }, body: '' };
    };
    if (q.get('response_type') !== 'code')
      return back({
        error: 'unsupported_response_type',
        error_description: 'AADSTS700054: response_type is not enabled for the application.',
      });
    if (!(q.get('scope') ?? '').split(' ').includes('openid'))
      return back({
        error: 'invalid_request',
        error_description: "AADSTS900144: The request body must contain the following parameter: 'openid' scope.",
      });
    if (q.get('code_challenge') !== null && q.get('code_challenge_method') !== 'S256')
      return back({ error: 'invalid_request', error_description: 'AADSTS501491: Invalid code_challenge_method.' });
    const tenantId = this.account.tenantId ?? this.app.consentTenant();
    const tenant = tenantId === undefined ? undefined : this.tenants.get(tenantId);
    const named = segment === 'organizations' || segment === 'common' ? undefined : segment;
    if (!tenant) return page('AADSTS50034: The user account does not exist in the directory.');
    if (named !== undefined && named !== tenant.id && named !== tenant.domain) {
      return page(
        `AADSTS50020: User account from identity provider does not exist in tenant '${named}' and cannot access the application.`,
      );
    }
    if (this.account.decision === 'decline')
      return back({
        error: 'access_denied',
        error_description: 'AADSTS65004: User declined to consent to access the app.',
      });
    const code = `1.${randomBytes(48).toString('base64url')}`;
    this.codes.set(code, {
      tenantId: tenant.id,
      ...(this.account.homeTenantId && { homeTenantId: this.account.homeTenantId }),
      clientId: this.app.clientId,
      redirectUri: redirect,
      challenge: q.get('code_challenge'),
      nonce: q.get('nonce'),
      expires: Date.now() + 10 * 60_000,
    });
    return back({ code, session_state: randomUUID() });
  }

  /** The token endpoint's authorization-code grant (the app's credential already checked). */
  redeem(
    form: URLSearchParams,
    error: (status: number, error: string, code: number, description: string) => Reply,
  ): Reply {
    this.counts.redeemed++;
    const code = this.codes.get(form.get('code') ?? '');
    this.codes.delete(form.get('code') ?? '');
    if (!code || code.expires < Date.now())
      return error(
        400,
        'invalid_grant',
        70008,
        'The provided authorization code or refresh token has expired due to inactivity.',
      );
    if (form.get('redirect_uri') !== code.redirectUri)
      return error(
        400,
        'invalid_grant',
        70000,
        "The request was denied because one or more grants are invalid: redirect_uri doesn't match.",
      );
    if (
      code.challenge !== null &&
      createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url') !== code.challenge
    ) {
      return error(
        400,
        'invalid_grant',
        501481,
        'The Code_Verifier does not match the code_challenge supplied in the authorization request.',
      );
    }
    const tenant = this.tenants.get(code.tenantId)!;
    const oid = randomUUID();
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        scope: 'openid profile email',
        expires_in: 3599,
        ext_expires_in: 3599,
        access_token: `eyJ0eXAiOiJKV1Qi.${randomBytes(24).toString('base64url')}`,
        id_token: this.idToken(tenant, code, oid),
        client_info: b64url({ uid: oid, utid: code.homeTenantId ?? tenant.id }),
      },
    };
  }

  private idToken(tenant: Tenant, code: Code, oid: string): string {
    const now = Math.floor(Date.now() / 1000);
    const fault = this.idTokenFault;
    const other = [...this.tenants.keys()].find((id) => id !== tenant.id) ?? randomUUID();
    const tid = fault === 'tid-mismatch' ? other : fault === 'consumer' ? CONSUMER_TENANT : tenant.id;
    // wrong-issuer: the v1.0 endpoint's issuer; tid-mismatch: the issuer names the tenant signed in to, tid another.
    const iss =
      fault === 'wrong-issuer'
        ? `https://sts.windows.net/${tid}/`
        : `${this.base()}/${fault === 'tid-mismatch' ? tenant.id : tid}/v2.0`;
    const claims = {
      aud: fault === 'wrong-audience' ? randomUUID() : code.clientId,
      iss,
      iat: fault === 'expired' ? now - 7200 : now,
      nbf: fault === 'expired' ? now - 7200 : now,
      exp: fault === 'expired' ? now - 3600 : now + 3600,
      aio: randomBytes(30).toString('base64url'),
      ...(code.homeTenantId && { idp: `https://sts.windows.net/${code.homeTenantId}/` }),
      name: 'Tenant Admin',
      nonce: fault === 'wrong-nonce' ? randomBytes(32).toString('base64url') : code.nonce,
      oid,
      preferred_username: `admin@${tenant.domain}`,
      rh: '0.AAAA.',
      sid: randomUUID(),
      sub: randomBytes(32).toString('base64url'),
      tid,
      uti: randomBytes(16).toString('base64url'),
      ver: '2.0',
    };
    const signingInput = `${b64url({ typ: 'JWT', alg: 'RS256', kid: this.kid })}.${b64url(claims)}`;
    const signature = sign('sha256', Buffer.from(signingInput), fault === 'bad-signature' ? this.otherKey : this.key);
    return `${signingInput}.${signature.toString('base64url')}`;
  }
}
