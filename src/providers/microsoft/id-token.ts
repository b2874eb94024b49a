/**
 * Which tenant an admin signed in to, proved: the ID token of the OpenID Connect sign-in, verified with `jose`
 * against the keys the authority publishes (the `jwks_uri` of its `organizations` discovery document), its
 * issuer (that document's `https://login.microsoftonline.com/{tenantid}/v2.0` with the token's `tid` put in:
 * an issuer names its tenant), our client id as audience, its lifetime and the flow's nonce. The tenant named in
 * the admin-consent redirect proves nothing (anyone can type a URL); this does.
 * Claims: https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference
 */
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { GraphApiError, SignInNotProvedError } from './errors.js';

/** The personal Microsoft accounts' tenant: never an organisation's. */
const CONSUMER_TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Discovery is read again after this (Microsoft rolls its keys every few weeks; jose refetches an unknown kid). */
const DISCOVERY_TTL_MS = 60 * 60_000;
const FETCH_TIMEOUT_MS = 10_000;

const discoveryDocument = z.object({ issuer: z.string(), jwks_uri: z.url({ protocol: /^https$/ }) });

const claims = z.object({
  tid: z.string().regex(GUID),
  nonce: z.string(),
  oid: z.string().optional(),
  preferred_username: z.string().optional(),
  /** Present only for an account from another identity provider than the tenant's own: a guest. */
  idp: z.string().optional(),
});

export interface SignedIn {
  tenantId: string;
  /** The admin's sign-in name (for the page), when the token has one. */
  username?: string;
}

export class IdTokenVerifier {
  private keys: { issuerTemplate: string; jwksUri: string; jwks: JWTVerifyGetKey; until: number } | undefined;

  constructor(private readonly o: { authorityUrl: string; clientId: string }) {}

  /** The tenant of a verified ID token with this nonce; SignInNotProvedError for any token that fails a check. */
  async verify(idToken: string, nonce: string): Promise<SignedIn> {
    let unverifiedTid: unknown;
    try {
      unverifiedTid = decodeJwt(idToken).tid;
    } catch {
      throw new SignInNotProvedError('the ID token is not a JWT');
    }
    if (typeof unverifiedTid !== 'string' || !GUID.test(unverifiedTid) || unverifiedTid === CONSUMER_TENANT) {
      throw new SignInNotProvedError(
        'the ID token names no organisation tenant (tid): sign in with a work account of the tenant',
      );
    }
    const { issuerTemplate, jwks } = await this.discovery();
    const issuer = issuerTemplate.replace('{tenantid}', unverifiedTid);
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(idToken, jwks, {
        issuer,
        audience: this.o.clientId,
        algorithms: ['RS256'],
        requiredClaims: ['exp', 'iat'],
        clockTolerance: 300,
      }));
    } catch (err) {
      if (isKeyFetchFailure(err))
        throw new GraphApiError(
          `Fetching Entra's signing keys failed: ${(err as Error).message}`,
          undefined,
          undefined,
          { cause: err },
        );
      throw new SignInNotProvedError(`the ID token does not check out (${(err as Error).message})`);
    }
    const c = claims.safeParse(payload);
    if (!c.success) throw new SignInNotProvedError('the ID token lacks tid or nonce');
    if (c.data.nonce !== nonce)
      throw new SignInNotProvedError('the ID token is not the one this sign-in asked for (nonce)');
    // A guest signs in to a tenant it is not of; `idp` names its own (MSAL's and the claims reference's rule).
    if (c.data.idp !== undefined && c.data.idp !== issuer) {
      throw new SignInNotProvedError(
        `the account is a guest in tenant ${c.data.tid} (its identity provider is ${c.data.idp}): sign in with an account of the tenant itself`,
      );
    }
    return { tenantId: c.data.tid, ...(c.data.preferred_username && { username: c.data.preferred_username }) };
  }

  /** The authority's `organizations` discovery document: the issuer template and the key set (cached). */
  private async discovery(): Promise<{ issuerTemplate: string; jwks: JWTVerifyGetKey }> {
    if (this.keys && this.keys.until > Date.now()) return this.keys;
    const origin = new URL(this.o.authorityUrl).origin;
    const url = `${origin}/organizations/v2.0/.well-known/openid-configuration`;
    let doc: z.infer<typeof discoveryDocument>;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      doc = discoveryDocument.parse(await res.json());
    } catch (err) {
      throw new GraphApiError(
        `Reading Entra's OpenID configuration (${url}) failed: ${(err as Error).message}`,
        undefined,
        undefined,
        { cause: err },
      );
    }
    // The keys come from the authority itself, and its issuers name a tenant where the template says so.
    if (
      new URL(doc.jwks_uri).origin !== origin ||
      !doc.issuer.startsWith(`${origin}/`) ||
      !doc.issuer.includes('{tenantid}')
    ) {
      throw new GraphApiError(
        `Entra's OpenID configuration (${url}) is not an organisations authority's: issuer ${doc.issuer}, keys ${doc.jwks_uri}`,
        undefined,
        undefined,
      );
    }
    // One key set per URI: jose keeps it, and refetches it for a key id it does not know (a rolled key).
    const jwks =
      this.keys?.jwksUri === doc.jwks_uri
        ? this.keys.jwks
        : createRemoteJWKSet(new URL(doc.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS });
    this.keys = { issuerTemplate: doc.issuer, jwksUri: doc.jwks_uri, jwks, until: Date.now() + DISCOVERY_TTL_MS };
    return this.keys;
  }
}

/** jose's errors for a key set it could not fetch (as opposed to a token that fails a check). */
function isKeyFetchFailure(err: unknown): boolean {
  const code = (err as { code?: string })?.code;
  return (
    code === 'ERR_JWKS_TIMEOUT' ||
    code === 'ERR_JOSE_GENERIC' ||
    (err instanceof TypeError && /fetch/i.test(err.message))
  );
}
