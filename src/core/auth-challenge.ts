/**
 * `WWW-Authenticate` challenges (RFC 7235 §3.1): every 401 carries one, for SCIM and the management API alike.
 * Each names the scheme its routes accept (Bearer for SCIM, Api-Key for management), with RFC 6750 §3's
 * `error="invalid_token"` only when a credential was sent.
 */

export const AUTH_REALM = 'dsync';

type Scheme = 'Bearer' | 'Api-Key';

export function challenge(scheme: Scheme, credentialSent: boolean): string {
  return credentialSent ? `${scheme} realm="${AUTH_REALM}", error="invalid_token"` : `${scheme} realm="${AUTH_REALM}"`;
}
