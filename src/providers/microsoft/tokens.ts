/**
 * App-only tokens for Microsoft Graph: the OAuth client-credentials grant through @azure/msal-node, one
 * ConfidentialClientApplication per tenant (the authority is per tenant), with a client secret or a certificate
 * (msal signs the client assertion). msal caches each token until shortly before it expires, so a run asks the
 * token endpoint about once an hour per tenant. Entra's refusals for good (consent revoked, a wrong secret or
 * certificate) become MicrosoftCredentialsError; anything else is a passing failure the caller retries.
 */
import { ConfidentialClientApplication, type Configuration } from '@azure/msal-node';
import { GraphApiError, MicrosoftCredentialsError, MicrosoftNotConfiguredError } from './errors.js';
import { graphScope, type MicrosoftOptions } from './options.js';

/** Token-endpoint errors no retry can fix: an admin must consent again, or the operator fix the credential. */
const CREDENTIAL_ERRORS = new Set([
  'invalid_client',
  'unauthorized_client',
  'invalid_grant',
  'access_denied',
  'invalid_request',
  'invalid_scope',
]);

interface MsalErrorLike {
  errorCode?: string;
  errorMessage?: string;
  status?: number;
}

/** msal's error as ours. Its message keeps only Entra's first sentence (`AADSTS700016: …`): no secret is in it. */
export function toTokenError(err: unknown, tenantId: string): Error {
  const e = err as MsalErrorLike;
  const detail = (e.errorMessage ?? String((err as Error)?.message ?? err)).split(/\r?\n| Trace ID:/)[0]!.slice(0, 300);
  const cause = { errorCode: e.errorCode, status: e.status, message: detail };
  if (e.errorCode && CREDENTIAL_ERRORS.has(e.errorCode)) {
    return new MicrosoftCredentialsError(
      `Entra refused the app's credentials for tenant ${tenantId} (${e.errorCode}: ${detail}): the consent may have been revoked; an admin of the tenant must grant consent again`,
      { cause },
    );
  }
  return new GraphApiError(
    `Getting a Graph token for tenant ${tenantId} failed: ${e.errorCode ?? 'error'}: ${detail}`,
    e.status,
    e.errorCode,
    { cause },
  );
}

export class GraphTokens {
  private readonly apps = new Map<string, ConfidentialClientApplication>();
  /** Token requests sent (cache misses), for the metrics. */
  onRequest?: () => void;

  constructor(private readonly options: MicrosoftOptions) {}

  get configured(): boolean {
    return Boolean(this.options.clientId && (this.options.clientSecret || this.options.certificate));
  }

  /** An access token for Graph in `tenantId`; `fresh` skips msal's cache (after Graph answered 401). */
  async token(tenantId: string, fresh = false): Promise<string> {
    const app = this.app(tenantId);
    try {
      const result = await app.acquireTokenByClientCredential({
        scopes: [graphScope(this.options.graphUrl)],
        ...(fresh && { skipCache: true }),
      });
      if (!result?.accessToken)
        throw new GraphApiError(`Entra returned no token for tenant ${tenantId}`, undefined, undefined);
      if (!result.fromCache) this.onRequest?.();
      return result.accessToken;
    } catch (err) {
      if (err instanceof GraphApiError) throw err;
      throw toTokenError(err, tenantId);
    }
  }

  private app(tenantId: string): ConfidentialClientApplication {
    let app = this.apps.get(tenantId);
    if (!app) {
      app = new ConfidentialClientApplication(this.configuration(tenantId));
      this.apps.set(tenantId, app);
    }
    return app;
  }

  private configuration(tenantId: string): Configuration {
    const { clientId, clientSecret, certificate, authorityUrl } = this.options;
    if (!clientId || !(clientSecret || certificate)) throw new MicrosoftNotConfiguredError();
    const authority = new URL(authorityUrl);
    return {
      auth: {
        clientId,
        authority: `${authority.origin}/${tenantId}`,
        // A known authority skips msal's instance discovery (a call to login.microsoftonline.com, whatever the
        // authority): the national clouds and a test's fake authority are then used as configured.
        knownAuthorities: [authority.host],
        ...(certificate ? { clientCertificate: certificate } : { clientSecret: clientSecret! }),
      },
    };
  }
}
