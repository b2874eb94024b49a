/**
 * Which Google Workspace consented: the ID token of the code exchange (scopes `openid email`) names the user's
 * organisation (`hd`, its primary domain) and e-mail. `hd` is only a hint on the consent page (any account may
 * sign in), so a directory created with `google_domain` must check it here, or anyone who gets a consent link
 * can connect their own workspace to the tenant. The token comes straight from Google's token endpoint over TLS,
 * which OpenID Connect Core §3.1.3.7 accepts in place of checking its signature; its audience is still checked.
 */
import { z } from 'zod';
import { GoogleCredentialsError, WrongWorkspaceError } from './errors.js';

const claims = z.object({
  aud: z.string(),
  email: z.string().optional(),
  email_verified: z.boolean().optional(),
  hd: z.string().optional(),
});

function decode(idToken: string): z.infer<typeof claims> | undefined {
  const payload = idToken.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    return claims.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
  } catch {
    return undefined;
  }
}

/**
 * Throws unless the consenting account belongs to the workspace of `domain`: its organisation's primary domain
 * is `domain`, or it is an organisation account whose verified e-mail is at `domain` (a secondary domain of the
 * same workspace: Google lets one workspace, and only one, verify a domain). A consumer account has no `hd`.
 */
export function checkWorkspace(
  idToken: string | null | undefined,
  expected: { clientId: string; domain: string },
): void {
  const c = idToken ? decode(idToken) : undefined;
  if (!c || c.aud !== expected.clientId) {
    throw new GoogleCredentialsError(
      'Google returned no usable ID token, so the workspace that consented is unknown: authorize again',
    );
  }
  const domain = expected.domain.toLowerCase();
  const hd = c.hd?.toLowerCase();
  const emailDomain = c.email_verified === true ? c.email?.split('@')[1]?.toLowerCase() : undefined;
  if (hd !== undefined && (hd === domain || emailDomain === domain)) return;
  throw new WrongWorkspaceError(expected.domain, hd);
}
