import type { Response } from 'express';
import type { FlowCookie } from '../providers/oauth/browser-flows.js';

/**
 * Sets an OAuth flow's cookie (its callback checks it): HttpOnly, SameSite=Lax (sent on the provider's redirect
 * back). Shared by the flows' own routes and the setup page, which starts a flow too.
 */
export function setFlowCookie(res: Response, c: FlowCookie): void {
  res.cookie(c.name, c.value, { httpOnly: true, secure: c.secure, sameSite: 'lax', path: '/', maxAge: c.maxAgeMs });
}
