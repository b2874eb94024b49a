/** The small HTML pages a browser gets from the routes it reaches without an Api-Key (OAuth start and callback). */
import type { Response } from 'express';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * Headers of every browser answer: never cached, nothing loaded, the URL (codes, tokens) never sent on as Referer,
 * and never shown in a frame (a page that starts or finishes a consent must not be clickjacked;
 * `X-Frame-Options` for browsers that predate `frame-ancestors`).
 */
export function browserHeaders(res: Response): Response {
  return res
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'")
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'no-referrer');
}

export function page(res: Response, status: number, title: string, text: string): void {
  browserHeaders(res)
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
        `<body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></body></html>`,
    );
}
