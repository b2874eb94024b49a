/**
 * The section of an HRIS directory type (BambooHR, HiBob, Personio): the provider's steps to create a read-only
 * key, a form where the IT admin pastes it (tried with the provider at once: its answer is shown, nothing is kept
 * unless it accepted), then the sync's state and "Sync now". The key is never shown again. Actions:
 * `hris/connect`, `hris/sync`. One guide per provider in hris-guides/ (the docs/guides pages say the same).
 */
import { DsyncError } from '../../core/errors.js';
import { html, type Html } from '../html.js';
import { actionForm, copyField } from './fragments.js';
import { syncAction, syncBlock } from './pull-section.js';
import type { SetupSection, SetupView } from './view-types.js';

export interface HrisField {
  name: string;
  label: string;
  /** A secret: a password input, never filled back. */
  secret?: boolean;
  optional?: boolean;
  hint?: string;
}

export interface HrisGuide {
  idp: string;
  /** What connecting reads, and how often. */
  intro: string;
  fields: HrisField[];
  /** `webhookUrl`: where the provider's webhook goes (this directory's). */
  steps: (webhookUrl: string) => Html[];
  notes?: Html[];
}

function field(f: HrisField): Html {
  const id = `hris-${f.name.replace(/_/g, '-')}`;
  const hint = f.hint ? html`<p class="hint" id="${id}-hint">${f.hint}</p>` : '';
  return html`<div class="field">
  <label for="${id}">${f.label}${f.optional ? ' (optional)' : ''}</label>
  <input id="${id}" name="${f.name}" type="${f.secret ? 'password' : 'text'}" autocomplete="off" spellcheck="false"${f.optional ? '' : html` required`}${f.hint ? html` aria-describedby="${id}-hint"` : ''}>
  ${hint}
</div>`;
}

/** This directory's webhook address, on the base its SCIM endpoint is built on. */
const webhookUrl = (view: SetupView): string =>
  `${view.scimUrl.replace(/\/api\/scim\/v2\.0\/.*$/, '')}/api/v1/dsync/hris/webhooks/${encodeURIComponent(view.directory.id)}`;

export function hrisSection(g: HrisGuide): SetupSection {
  const render = (view: SetupView): Html => {
    const connected = view.live.pull?.connected ?? false;
    return html`<section class="card" aria-labelledby="connect-h">
  <h2 id="connect-h">Connect ${g.idp}</h2>
  <p>${g.intro}</p>
  <h3>Steps</h3>
  <ol class="steps" id="hris-steps">${g.steps(webhookUrl(view)).map((s) => html`<li>${s}</li>`)}</ol>
  ${copyField('hris-webhook-url', 'Webhook URL', webhookUrl(view), html`Optional: ${g.idp} calls it on every change, and this service syncs within seconds.`)}
  ${g.notes?.length ? html`<ul class="notes">${g.notes.map((n) => html`<li>${n}</li>`)}</ul>` : ''}
  ${
    view.directory.managed_by
      ? html`<p class="hint" id="hris-managed">Your provider manages this connection: its key is set where they manage it; give them the key to use.</p>`
      : actionForm(
          view,
          'hris/connect',
          html`${g.fields.map(field)}<p class="hint">${connected ? `${g.idp} is connected; entering a new key replaces the one in use.` : 'The key is checked with ' + g.idp + ' at once and never shown again.'}</p>
  <button type="submit" id="hris-connect">${connected ? `Replace the ${g.idp} key` : `Connect ${g.idp}`}</button>`,
        )
  }
  <h3>Sync</h3>
  ${syncBlock({}, view.live.pull)}
  ${actionForm(view, 'hris/sync', html`<button type="submit" class="secondary" id="sync-now"${connected ? '' : html` disabled`}>Sync now</button>`)}
</section>`;
  };
  return {
    idp: g.idp,
    pull: true,
    render,
    actions: {
      'hris/connect': async ({ dsync, directory, fields }) => {
        const input = Object.fromEntries(
          g.fields.flatMap((f) =>
            typeof fields[f.name] === 'string' && fields[f.name] !== ''
              ? [[f.name, (fields[f.name] as string).trim()]]
              : [],
          ),
        );
        try {
          const connected = await dsync.hris.setCredentials(directory.id, input);
          return {
            data: connected,
            page: { notice: { kind: 'success', text: `${g.idp} accepted the key: the first sync has started.` } },
          };
        } catch (err) {
          // The provider unreachable or failing is the admin's to know too, as a notice (nothing was kept).
          if (err instanceof DsyncError && err.status === 502)
            return {
              data: null,
              page: { notice: { kind: 'error', text: `${err.message}. Nothing was saved; try again.` } },
            };
          throw err;
        }
      },
      'hris/sync': syncAction((dsync, directoryId) => dsync.hris.sync({ directoryId })),
    },
  };
}
