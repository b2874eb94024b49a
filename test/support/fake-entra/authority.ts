/**
 * The Microsoft identity platform side of the fake: a multi-tenant app registration (client secret and/or
 * certificate), each tenant's OpenID configuration, the v2.0 token endpoint for the client-credentials grant
 * and the authorization-code grant of the sign-in (oidc.ts) (secret, or a signed client assertion checked against
 * the registered certificate), and the admin-consent endpoint that redirects back with
 * `admin_consent=True&tenant=` or an `error`. Error bodies are Entra's
 * (`{error, error_description: "AADSTS…", error_codes, timestamp, trace_id, correlation_id}`).
 */
import { createHash, randomBytes, randomUUID, verify, constants, X509Certificate } from 'node:crypto';
import { FakeOidc } from './oidc.js';
import type { Tenant } from './tenant.js';

export const FAKE_APP = { clientId: '11111111-2222-4333-8444-555555555555', secret: 'fake~entra~secret' };

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export function aadError(status: number, error: string, code: number, description: string): Reply {
  return {
    status,
    body: {
      error,
      error_description: `AADSTS${code}: ${description} Trace ID: ${randomUUID()} Correlation ID: ${randomUUID()} Timestamp: ${new Date().toISOString()}`,
      error_codes: [code],
      timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19) + 'Z',
      trace_id: randomUUID(),
      correlation_id: randomUUID(),
      error_uri: `https://login.microsoftonline.com/error?code=${code}`,
    },
  };
}

export interface AccessToken {
  tenantId: string;
  expires: number;
}

const b64urlJson = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

export class FakeAuthority {
  /** Certificates registered on the app: SHA-256 thumbprint (base64url) → certificate. */
  private readonly certificates = new Map<string, X509Certificate>();
  readonly redirectUris = new Set<string>();
  readonly tokens = new Map<string, AccessToken>();
  tokenLifetimeS = 3599;
  grants = { secret: 0, assertion: 0 };
  /**
   * What the admin at the consent page does, and as an admin of which tenant (who signs in, unless oidc.account says).
   */
  consent: { tenantId?: string; decision: 'accept' | 'decline'; answerTenantId?: string } = { decision: 'accept' };
  /** The OpenID Connect sign-in. */
  readonly oidc: FakeOidc;

  constructor(
    private readonly tenants: Map<string, Tenant>,
    private readonly base: () => string,
  ) {
    this.oidc = new FakeOidc(tenants, base, {
      clientId: FAKE_APP.clientId,
      redirectUris: this.redirectUris,
      consentTenant: () => this.consent.tenantId,
    });
  }

  registerCertificate(pem: string): void {
    const cert = new X509Certificate(pem);
    const thumb = createHash('sha256').update(cert.raw).digest('base64url');
    this.certificates.set(thumb, cert);
  }

  openIdConfiguration(tenant: string): Reply {
    const root = `${this.base()}/${tenant}`;
    // The multi-tenant documents name no tenant in their issuer: a placeholder the token's tid fills.
    const issuerTenant =
      tenant === 'organizations' || tenant === 'common' ? '{tenantid}' : (this.tenants.get(tenant)?.id ?? tenant);
    return {
      status: 200,
      body: {
        token_endpoint: `${root}/oauth2/v2.0/token`,
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
        jwks_uri: `${this.base()}/${tenant}/discovery/v2.0/keys`,
        response_modes_supported: ['query', 'fragment', 'form_post'],
        subject_types_supported: ['pairwise'],
        id_token_signing_alg_values_supported: ['RS256'],
        response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        issuer: `${this.base()}/${issuerTenant}/v2.0`,
        request_uri_parameter_supported: false,
        userinfo_endpoint: 'https://graph.microsoft.com/oidc/userinfo',
        authorization_endpoint: `${root}/oauth2/v2.0/authorize`,
        device_authorization_endpoint: `${root}/oauth2/v2.0/devicecode`,
        http_logout_supported: true,
        frontchannel_logout_supported: true,
        end_session_endpoint: `${root}/oauth2/v2.0/logout`,
        claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'tid'],
        kerberos_endpoint: `${root}/kerberos`,
        tenant_region_scope: 'EU',
        cloud_instance_name: 'microsoftonline.com',
        cloud_graph_host_name: 'graph.windows.net',
        msgraph_host: 'graph.microsoft.com',
        rbac_url: 'https://pas.windows.net',
      },
    };
  }

  /**
   * POST /{tenant}/oauth2/v2.0/token: the client-credentials grant (what a daemon app uses), and the sign-in's code.
   */
  token(tenantSegment: string, form: URLSearchParams, graphScope: string): Reply {
    if (form.get('grant_type') === 'authorization_code') {
      if (form.get('client_id') !== FAKE_APP.clientId)
        return aadError(
          400,
          'unauthorized_client',
          700016,
          `Application with identifier '${form.get('client_id')}' was not found.`,
        );
      return (
        this.checkCredential(form, `${this.base()}/${tenantSegment}/oauth2/v2.0/token`) ??
        this.oidc.redeem(form, aadError)
      );
    }
    const tenant =
      this.tenants.get(tenantSegment) ?? [...this.tenants.values()].find((t) => t.domain === tenantSegment);
    if (!tenant) return aadError(400, 'invalid_request', 90002, `Tenant '${tenantSegment}' not found.`);
    if (form.get('grant_type') !== 'client_credentials') {
      return aadError(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
    }
    if (form.get('client_id') !== FAKE_APP.clientId) {
      return aadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${form.get('client_id')}' was not found in the directory '${tenant.id}'.`,
      );
    }
    const scope = form.get('scope') ?? '';
    if (!scope.split(' ').includes(graphScope)) {
      return aadError(
        400,
        'invalid_scope',
        1002012,
        `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier.`,
      );
    }
    const credential = this.checkCredential(form, `${this.base()}/${tenantSegment}/oauth2/v2.0/token`);
    if (credential) return credential;
    if (!tenant.consented) {
      return aadError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${FAKE_APP.clientId}' was not found in the directory '${tenant.domain}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant.`,
      );
    }
    const accessToken = `eyJ0eXAiOiJKV1Qi.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(accessToken, { tenantId: tenant.id, expires: Date.now() + this.tokenLifetimeS * 1000 });
    return {
      status: 200,
      body: {
        token_type: 'Bearer',
        expires_in: this.tokenLifetimeS,
        ext_expires_in: this.tokenLifetimeS,
        access_token: accessToken,
      },
    };
  }

  /** The client secret, or a client assertion signed with a registered certificate; a Reply when it fails. */
  private checkCredential(form: URLSearchParams, audience: string): Reply | undefined {
    const secret = form.get('client_secret');
    if (secret !== null) {
      if (secret !== FAKE_APP.secret)
        return aadError(
          401,
          'invalid_client',
          7000215,
          'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
        );
      this.grants.secret++;
      return undefined;
    }
    const assertion = form.get('client_assertion');
    if (form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' || !assertion) {
      return aadError(
        401,
        'invalid_client',
        7000218,
        "The request body must contain the following parameter: 'client_assertion' or 'client_secret'.",
      );
    }
    const bad = (why: string) =>
      aadError(401, 'invalid_client', 700027, `Client assertion failed signature validation or is invalid: ${why}.`);
    const [h, p, s] = assertion.split('.');
    if (!h || !p || !s) return bad('not a JWT');
    let header: Record<string, unknown>;
    let payload: Record<string, unknown>;
    try {
      header = b64urlJson(h);
      payload = b64urlJson(p);
    } catch {
      return bad('not a JWT');
    }
    const cert = this.certificates.get(String(header['x5t#S256'] ?? ''));
    if (!cert)
      return aadError(
        401,
        'invalid_client',
        700027,
        'Client assertion contains an invalid signature. [Reason - The key was not found.]',
      );
    const alg = header.alg;
    const key =
      alg === 'PS256'
        ? { key: cert.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
        : cert.publicKey;
    if (
      (alg !== 'PS256' && alg !== 'RS256') ||
      !verify('sha256', Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))
    )
      return bad('signature');
    if (payload.aud !== audience) return bad(`audience ${String(payload.aud)}`);
    if (payload.iss !== FAKE_APP.clientId || payload.sub !== FAKE_APP.clientId) return bad('issuer');
    if (typeof payload.exp !== 'number' || payload.exp * 1000 < Date.now())
      return aadError(401, 'invalid_client', 700024, 'Client assertion is not within its valid time range.');
    this.grants.assertion++;
    return undefined;
  }

  /** GET /{tenant|organizations|common}/v2.0/adminconsent: the admin decides at once; the browser is redirected. */
  adminConsent(tenantSegment: string, q: URLSearchParams, graphScope: string): Reply {
    const redirect = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== FAKE_APP.clientId) {
      return {
        status: 400,
        headers: { 'Content-Type': 'text/html' },
        body: `AADSTS700016: Application with identifier '${q.get('client_id')}' was not found.`,
      };
    }
    if (!this.redirectUris.has(redirect)) {
      return {
        status: 400,
        headers: { 'Content-Type': 'text/html' },
        body: `AADSTS50011: The redirect URI '${redirect}' specified in the request does not match the redirect URIs configured for the application.`,
      };
    }
    const to = new URL(redirect);
    const state = q.get('state');
    const named = tenantSegment === 'organizations' || tenantSegment === 'common' ? undefined : tenantSegment;
    const tenant =
      this.tenants.get(named ?? this.consent.tenantId ?? '') ??
      [...this.tenants.values()].find((t) => t.domain === named);
    if (q.get('scope') !== graphScope || !tenant || this.consent.decision === 'decline') {
      to.searchParams.set('error', 'access_denied');
      to.searchParams.set('error_description', 'AADSTS65004: User declined to consent to access the app.');
      to.searchParams.set('admin_consent', 'True');
    } else {
      tenant.consented = true;
      to.searchParams.set('admin_consent', 'True');
      // answerTenantId: the answer edited by hand (what a forged callback carries), for the tests of our checks.
      to.searchParams.set('tenant', this.consent.answerTenantId ?? tenant.id);
      to.searchParams.set(
        'scope',
        ['User.Read.All', 'Group.Read.All', 'GroupMember.Read.All']
          .map((p) => `${new URL(graphScope).origin}/${p}`)
          .join(' '),
      );
    }
    if (state !== null) to.searchParams.set('state', state);
    return { status: 302, headers: { Location: to.toString() }, body: '' };
  }

  /** The tenant whose Graph a bearer token opens, or why not. */
  bearer(header: string | undefined): AccessToken | 'invalid' | 'expired' {
    const token = /^Bearer (.+)$/.exec(header ?? '')?.[1];
    const t = token ? this.tokens.get(token) : undefined;
    if (!t) return 'invalid';
    return t.expires <= Date.now() ? 'expired' : t;
  }
}
