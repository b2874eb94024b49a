/**
 * The section every SCIM identity provider shares: the SCIM base URL to copy, the bearer tokens (create one,
 * shown once; revoke), then that provider's own steps (guides/*.ts). Its actions: `scim-tokens` (create) and
 * `scim-tokens/revoke` (field `token_id`).
 */
import { ValidationError } from '../../core/errors.js';
import { MAX_ACTIVE_TOKENS, PRIMARY_TOKEN_ID } from '../../core/scim-token-list.js';
import { html, type Html } from '../html.js';
import { actionForm, copyField, tokenLabel, when } from './fragments.js';
import type { SetupSection, SetupView } from './view-types.js';

export interface ScimGuide {
  idp: string;
  /** What the identity provider calls the SCIM base URL, and what goes there (default: the URL as it is). */
  url: { label: string; value?: (scimUrl: string) => string; hint?: Html };
  /** What the identity provider calls the token field. */
  tokenField: string;
  steps: (view: SetupView) => Html[];
  /** Where this provider is picky: shown after the steps. */
  notes?: Html[];
}

function tokensBlock(view: SetupView, guide: ScimGuide): Html {
  const { tokens } = view.live;
  const full = tokens.length >= MAX_ACTIVE_TOKENS;
  const managed = view.directory.managed_by !== undefined;
  return html`<h3 id="tokens-h">Bearer tokens</h3>
<p class="hint">${guide.idp} sends one of these with every request (its ${guide.tokenField} field). This directory holds at most
${MAX_ACTIVE_TOKENS}, so a token can be replaced without a gap: create a new one, enter it in ${guide.idp}, then revoke the old one.</p>
<div class="table-wrap"><table id="tokens" aria-labelledby="tokens-h" data-managed="${managed ? 'true' : 'false'}">
  <thead><tr><th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${tokens.map(
    (t) =>
      html`<tr data-token-id="${t.id}"><td data-label="Token">${tokenLabel(t)}${t.expires_at ? html` <span class="hint">(works until ${when(t.expires_at)})</span>` : ''}</td><td data-label="Created">${when(t.created_at)}</td><td data-label="Last used">${when(t.last_used_at)}</td><td>${
        t.id === PRIMARY_TOKEN_ID && managed
          ? html`<span class="hint">Managed by your provider</span>`
          : actionForm(
              view,
              'scim-tokens/revoke',
              html`<button type="submit" class="secondary">Revoke<span class="visually-hidden"> ${tokenLabel(t)}</span></button>`,
              { token_id: t.id },
            )
      }</td></tr>`,
  )}</tbody>
</table></div>
<p id="no-tokens"${tokens.length > 0 ? html` hidden` : ''}>No working token: create one, then enter it in ${guide.idp}.</p>
<div id="new-token" class="new-token" role="region" aria-labelledby="new-token-h"${view.newToken ? '' : html` hidden`}>
  <h4 id="new-token-h">Your new token</h4>
  <p>Copy it into ${guide.idp} now: it is shown only this once and cannot be read again.</p>
  ${copyField('new-token-value', 'New bearer token', view.newToken?.token ?? '')}
</div>
${actionForm(
  view,
  'scim-tokens',
  html`<button type="submit" id="create-token"${full ? html` disabled` : ''}>Create token</button>
<p id="tokens-full" class="hint"${full ? '' : html` hidden`}>This directory already has ${MAX_ACTIVE_TOKENS} tokens: revoke one to create another.</p>`,
)}`;
}

export function scimSection(guide: ScimGuide): SetupSection {
  return {
    idp: guide.idp,
    render: (view) => html`<section class="card" aria-labelledby="connect-h">
  <h2 id="connect-h">Connection details</h2>
  ${copyField('scim-url', guide.url.label, guide.url.value ? guide.url.value(view.scimUrl) : view.scimUrl, guide.url.hint)}
  ${tokensBlock(view, guide)}
</section>
<section class="card" aria-labelledby="steps-h">
  <h2 id="steps-h">Set up ${guide.idp}, step by step</h2>
  <ol class="steps">${guide.steps(view).map((step) => html`<li>${step}</li>`)}</ol>
  ${guide.notes?.length ? html`<h3>Good to know</h3><ul class="notes">${guide.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
</section>`,
    actions: {
      'scim-tokens': async ({ dsync, directory }) => {
        const created = await dsync.scimTokens.create(directory.id);
        return { data: created, page: { newToken: created } };
      },
      'scim-tokens/revoke': async ({ dsync, directory, fields }) => {
        const id = fields.token_id;
        if (typeof id !== 'string' || id === '' || id.length > 100)
          throw new ValidationError('token_id is required', 'token_id');
        await dsync.scimTokens.revoke(directory.id, id);
        return {
          data: { id, revoked: true },
          page: { notice: { kind: 'success', text: 'The token was revoked: it stops working at once.' } },
        };
      },
    },
  };
}
