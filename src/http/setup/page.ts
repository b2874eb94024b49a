/** The setup page as a whole document, and the pages that say why a link does not open (or not now). */
import { html, type Html } from '../html.js';
import { attributesSection } from './attributes-section.js';
import { recentTable, statusBlock, when } from './fragments.js';
import type { SetupSection, SetupView } from './view-types.js';

function document(root: string, title: string, body: Html, data: Record<string, string> = {}): string {
  const attrs = Object.entries(data).map(([k, v]) => html` data-${k}="${v}"`);
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="data:,">
<title>${title}</title>
<link rel="stylesheet" href="${root}static/setup.css">
<script src="${root}static/setup.js" defer></script>
</head>
<body${attrs}>
${body}
</body>
</html>`.text;
}

export function setupPage(view: SetupView, section: SetupSection): string {
  const { directory } = view;
  const body = html`<header class="top">
  <p class="product">Directory sync setup</p>
  <h1>${directory.name}</h1>
  <p class="meta">Identity provider: ${section.idp}. This setup link works until ${when(view.expiresAt)}.</p>
</header>
<main>
  <div id="notice" class="notice ${view.notice?.kind ?? ''}" role="alert"${view.notice ? '' : html` hidden`}>${view.notice?.text ?? ''}</div>
  ${statusBlock(view.live, section.idp, section.pull ? 'Last sync' : 'Last request')}
  ${section.render(view)}
  ${attributesSection(view)}
  ${section.pull ? '' : recentTable(view.live.recent)}
</main>
<footer><p>Keep this link to yourself: whoever has it can change this connection. It stops working when it expires or is revoked.</p></footer>
<p id="announce" class="visually-hidden" aria-live="polite"></p>`;
  return document(view.root, `Set up directory sync: ${directory.name}`, body, {
    status: `${view.root}${view.link}/status`,
    csrf: view.csrf,
  });
}

const GONE_REASONS = {
  revoked: 'It has been revoked.',
  expired: 'It has expired.',
  unknown: 'It is not a link this service knows: check that it was copied whole.',
} as const;

/** 404 (unknown) or 410 (revoked or expired): what happened and whom to ask, never a bare error. */
export function linkGonePage(root: string, reason: keyof typeof GONE_REASONS): string {
  return messagePage(
    root,
    'This setup link is no longer valid',
    html`<p>${GONE_REASONS[reason]}</p><p>Ask the person who sent it to you for a new setup link.</p>`,
  );
}

export function messagePage(root: string, title: string, body: Html): string {
  return document(root, title, html`<main class="message"><div class="card"><h1>${title}</h1>${body}</div></main>`);
}
