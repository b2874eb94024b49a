/**
 * The setup page's defences. Headers: a strict Content-Security-Policy (scripts and styles from this origin
 * only, no inline script, no framing unless the embedding application allows its own origins), no referrer
 * (the URL is the credential), no caching (a response may show a token). CSRF: every action is a POST that
 * must come from the page itself — a browser's Fetch Metadata (or an Origin other than `null`) says so, and a
 * token derived from the link must come with it.
 */
import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { sameSecret } from '../../core/secrets.js';

export interface FramingOptions {
  /** Origins allowed to frame the page (an admin UI embedding it); default none. */
  frameAncestors?: string[];
}

export function pageHeaders(
  res: Response,
  { formTargets = [], frameAncestors = [] }: { formTargets?: string[] } & FramingOptions,
): void {
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `form-action 'self'${formTargets.map((o) => ` ${o}`).join('')}`,
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
    "base-uri 'none'",
  ].join('; ');
  res.setHeader('Content-Security-Policy', csp);
  if (frameAncestors.length === 0) res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

/** The CSRF token of a link's page: derived from the link, so nothing more is stored and only its holders know it. */
export const csrfToken = (link: string): string =>
  createHash('sha256').update(`dsync setup csrf\0${link}`).digest('base64url');

/** Why a POST is refused as cross-site, or undefined when it came from the page. */
export function csrfFailure(req: Request, link: string, given: unknown): string | undefined {
  const site = req.get('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return `a ${site} request`;
  const origin = req.get('origin');
  // `null` is what a browser sends for the page's own form posts under Referrer-Policy: no-referrer.
  if (origin !== undefined && origin !== 'null') {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== req.get('host')) return 'a request from another origin';
  }
  if (typeof given !== 'string' || !sameSecret(given, csrfToken(link)))
    return "a request without the page's CSRF token";
  return undefined;
}
