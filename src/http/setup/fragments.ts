/** Small pieces of the setup page shared by its sections: times, copy fields, forms, the status and tables. */
import { PRIMARY_TOKEN_ID } from '../../core/scim-token-list.js';
import type { ScimTokenView } from '../../core/scim-tokens.js';
import type { ActivityEntry } from '../../core/store-port.js';
import { html, type Html } from '../html.js';
import type { LiveStatus, SetupView } from './view-types.js';

/** A time as UTC text inside `<time>`; the page's script shows it in the reader's own time zone. */
export function when(iso: string | null, none = 'never'): Html {
  if (!iso) return html`${none}`;
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return html`<time datetime="${iso}">${text}</time>`;
}

/** A read-only value with a copy button (the value is selected, so copying by hand works without the script). */
export function copyField(id: string, label: string, value: string, hint?: Html): Html {
  return html`<div class="field">
  <label for="${id}">${label}</label>
  <div class="copy-row"><input id="${id}" type="text" readonly value="${value}" spellcheck="false"><button type="button" class="copy" data-copy="${id}"><span class="label">Copy</span><span class="visually-hidden"> the ${label}</span></button></div>
  ${hint ? html`<p class="hint">${hint}</p>` : ''}
</div>`;
}

/** A POST form to one of the page's actions, with the CSRF token. */
export function actionForm(view: SetupView, action: string, content: Html, hidden: Record<string, string> = {}): Html {
  return html`<form method="post" action="${view.root}${view.link}/${action}" data-action="${action}">
  <input type="hidden" name="csrf" value="${view.csrf}">${Object.entries(hidden).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
  ${content}
</form>`;
}

export function statusText(live: LiveStatus, idp: string): string {
  return live.state === 'waiting' ? `Waiting for the first request from ${idp}` : `Receiving from ${idp}`;
}

export function statusBlock(live: LiveStatus, idp: string, lastLabel = 'Last request'): Html {
  return html`<section class="card" aria-labelledby="status-h">
  <h2 id="status-h">Status</h2>
  <p id="state" class="state state-${live.state}" role="status">${statusText(live, idp)}</p>
  <dl class="counts">
    <div><dt>Users</dt><dd id="count-users">${live.users}</dd></div>
    <div><dt>Groups</dt><dd id="count-groups">${live.groups}</dd></div>
    <div><dt>${lastLabel}</dt><dd id="last-request">${when(live.last_request_at)}</dd></div>
  </dl>
</section>`;
}

export const tokenLabel = (t: ScimTokenView): string => (t.id === PRIMARY_TOKEN_ID ? 'Initial token' : `Token ${t.id}`);

export function recentTable(recent: ActivityEntry[]): Html {
  return html`<section class="card" aria-labelledby="recent-h">
  <h2 id="recent-h">Recent requests</h2>
  <p class="hint">What your identity provider sent, newest first, with the reason of each failure. Request bodies are not kept.</p>
  <p id="recent-empty"${recent.length > 0 ? html` hidden` : ''}>No requests yet.</p>
  <div class="table-wrap"><table id="recent"${recent.length === 0 ? html` hidden` : ''}>
    <caption class="visually-hidden">Recent SCIM requests</caption>
    <thead><tr><th scope="col">Time</th><th scope="col">Request</th><th scope="col">Status</th><th scope="col">Error</th></tr></thead>
    <tbody>${recent.map(
      (e) =>
        html`<tr class="${e.status >= 400 ? 'failed' : 'ok'}"><td data-label="Time">${when(e.at)}</td><td data-label="Request"><code>${e.method} ${e.path}</code></td><td data-label="Status">${e.status}</td><td data-label="Error">${e.error ?? ''}</td></tr>`,
    )}</tbody>
  </table></div>
</section>`;
}
