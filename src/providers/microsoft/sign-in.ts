/**
 * The admin signs in before consenting, as Microsoft recommends for the admin-consent endpoint (identify the
 * organisation first: https://learn.microsoft.com/en-us/entra/identity-platform/v2-admin-consent): the OpenID
 * Connect authorization code flow on the v2.0 endpoints of the same authority (`/{tenant}/oauth2/v2.0/authorize`,
 * scope `openid profile`, a nonce, PKCE), the code redeemed at `/{tenant}/oauth2/v2.0/token` with the app's own
 * credential (its secret, or a client assertion signed with its certificate), and the ID token verified
 * (id-token.ts). Only the tenant is kept; the tokens are dropped.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import { GraphApiError, MicrosoftCredentialsError, SignInNotProvedError } from './errors.js';
import { IdTokenVerifier, type SignedIn } from './id-token.js';
import type { MicrosoftCertificate, MicrosoftOptions } from './options.js';

/** What the flow keeps between the sign-in page and its callback. */
export const signInStep = z.object({
  /** The tenant segment signed in on: the directory's tenant, or `organizations`. */
  segment: z.string(),
  nonce: z.string(),
  verifier: z.string(),
});
export type SignInStep = z.infer<typeof signInStep>;

const tokenAnswer = z.union([
  z.object({ id_token: z.string() }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

const random = () => randomBytes(32).toString('base64url');
/** Entra's first sentence (`AADSTS…: …`), without its trace and correlation ids. */
export const firstSentence = (text: string | undefined) => (text ?? '').split(/\r?\n| Trace ID:/)[0]!.slice(0, 200);

export class AdminSignIn {
  private readonly verifier: IdTokenVerifier;
  private readonly origin: string;

  constructor(private readonly o: MicrosoftOptions & { clientId: string }) {
    this.origin = new URL(o.authorityUrl).origin;
    this.verifier = new IdTokenVerifier({ authorityUrl: o.authorityUrl, clientId: o.clientId });
  }

  /** Microsoft's sign-in page for the flow of `state`, and what its callback needs. */
  page(segment: string, state: string): { url: string; step: SignInStep } {
    const step = { segment, nonce: random(), verifier: random() };
    const url = new URL(`${this.origin}/${segment}/oauth2/v2.0/authorize`);
    url.searchParams.set('client_id', this.o.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('redirect_uri', this.o.redirectUrl);
    url.searchParams.set('response_mode', 'query');
    url.searchParams.set('scope', 'openid profile');
    url.searchParams.set('state', state);
    url.searchParams.set('nonce', step.nonce);
    url.searchParams.set('code_challenge', createHash('sha256').update(step.verifier).digest('base64url'));
    url.searchParams.set('code_challenge_method', 'S256');
    // The admin picks the account (one browser often holds several): the one that will consent.
    url.searchParams.set('prompt', 'select_account');
    return { url: url.toString(), step };
  }

  /** The sign-in's callback code redeemed and its ID token verified: the tenant the admin signed in to. */
  async prove(step: SignInStep, code: string): Promise<SignedIn> {
    const endpoint = `${this.origin}/${step.segment}/oauth2/v2.0/token`;
    const form = new URLSearchParams({
      client_id: this.o.clientId,
      grant_type: 'authorization_code',
      code,
      redirect_uri: this.o.redirectUrl,
      code_verifier: step.verifier,
      scope: 'openid profile',
    });
    await this.authenticate(form, endpoint);
    let answer: z.infer<typeof tokenAnswer>;
    let status: number;
    try {
      const res = await fetch(endpoint, { method: 'POST', body: form, signal: AbortSignal.timeout(10_000) });
      status = res.status;
      answer = tokenAnswer.parse(await res.json());
    } catch (err) {
      throw new GraphApiError(
        `Redeeming the sign-in code at ${endpoint} failed: ${(err as Error).message}`,
        undefined,
        undefined,
        { cause: err },
      );
    }
    if ('error' in answer) {
      const why = `${answer.error}: ${firstSentence(answer.error_description)}`;
      if (answer.error === 'invalid_client')
        throw new MicrosoftCredentialsError(
          `Entra refused the app's credentials while redeeming the sign-in (${why}): check DSYNC_MICROSOFT_CLIENT_SECRET or the certificate`,
        );
      if (status >= 500)
        throw new GraphApiError(`Entra failed to redeem the sign-in code (${why})`, status, answer.error);
      throw new SignInNotProvedError(`Microsoft refused the sign-in code (${why})`);
    }
    return this.verifier.verify(answer.id_token, step.nonce);
  }

  /** The app's credential on the token request: its secret, or an assertion signed with its certificate. */
  private async authenticate(form: URLSearchParams, audience: string): Promise<void> {
    if (this.o.certificate) {
      form.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      form.set('client_assertion', await clientAssertion(this.o.certificate, this.o.clientId, audience));
    } else {
      form.set('client_secret', this.o.clientSecret ?? '');
    }
  }
}

/**
 * A client assertion as Entra takes it (and as msal-node signs the app's own token requests): PS256, the
 * certificate named by its SHA-256 thumbprint, our client id as issuer and subject, the token endpoint as audience.
 * https://learn.microsoft.com/en-us/entra/identity-platform/certificate-credentials
 */
async function clientAssertion(certificate: MicrosoftCertificate, clientId: string, audience: string): Promise<string> {
  const key = await importPKCS8(certificate.privateKey, 'PS256');
  const der = certificate.x5c.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, '');
  return new SignJWT({})
    .setProtectedHeader({
      alg: 'PS256',
      typ: 'JWT',
      'x5t#S256': Buffer.from(certificate.thumbprintSha256, 'hex').toString('base64url'),
      x5c: [der],
    })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(audience)
    .setJti(randomUUID())
    .setNotBefore('0s')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(key);
}
