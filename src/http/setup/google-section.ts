/**
 * Google Workspace: "Connect Google Workspace" runs the existing consent flow (the browser comes back to this
 * page), then the sync's state and "Sync now". Actions: `google/connect`, `google/sync`.
 */
import type { SyncStatus } from '../../providers/google/sync-status.js';
import { html, type Html } from '../html.js';
import { actionForm, when } from './fragments.js';
import type { SetupSection, SetupView } from './section.js';

const STATES: Record<SyncStatus['state'], string> = {
  pending: 'Connected, waiting for the first sync',
  running: 'Syncing now',
  succeeded: 'Synced',
  failed: 'The last sync failed; the next one retries',
  guarded: 'Synced, but deletions were held back (too many at once)',
  invalid_credentials: 'Google refused the authorization: connect again',
  not_authorized: 'Not connected yet',
};

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

export const syncStateText = (s: SyncStatus['state']): string => STATES[s];

function syncBlock(sync: SyncStatus | undefined): Html {
  return html`<dl class="counts" id="google-sync">
  <div><dt>Sync</dt><dd id="google-state">${sync ? syncStateText(sync.state) : ''}</dd></div>
  <div><dt>Last success</dt><dd id="google-last-success">${when(sync?.last_success_at ?? null)}</dd></div>
  <div><dt>Listed by Google</dt><dd id="google-listed">${sync ? `${count(sync.listed.users, 'user')}, ${count(sync.listed.groups, 'group')}` : ''}</dd></div>
</dl>
<p id="google-error" class="error-text"${sync?.error ? '' : html` hidden`}>${sync?.error?.message ?? ''}</p>`;
}

function render(view: SetupView): Html {
  const google = view.live.google;
  const connected = google?.connected ?? false;
  return html`<section class="card" aria-labelledby="connect-h">
  <h2 id="connect-h">Connect Google Workspace</h2>
  <p>This service reads your workspace's users and groups (read only). An administrator who can see all users and groups signs in to Google and allows it; you come back here afterwards.</p>
  ${actionForm(view, 'google/connect', html`<button type="submit" id="google-connect">${connected ? 'Connect Google Workspace again' : 'Connect Google Workspace'}</button>`)}
  <h3>Sync</h3>
  ${syncBlock(google?.sync)}
  ${actionForm(view, 'google/sync', html`<button type="submit" class="secondary" id="google-sync-now"${connected ? '' : html` disabled`}>Sync now</button>`)}
</section>`;
}

export const googleSection: SetupSection = {
  idp: 'Google Workspace',
  pull: true,
  render,
  formTargets: (dsync) => [dsync.google.consentOrigin],
  actions: {
    'google/connect': async ({ dsync, directory, pageUrl }) => {
      const { authorizationUrl } = await dsync.google.authorizationUrl({ directoryId: directory.id, redirectUrl: pageUrl });
      return { data: { authorizationUrl }, redirect: authorizationUrl };
    },
    'google/sync': async ({ dsync, directory }) => {
      const report = await dsync.google.sync({ directoryId: directory.id });
      const failed = report.failed > 0;
      return {
        data: report,
        page: { notice: failed ? { kind: 'error', text: 'The sync failed; see the error below.' } : { kind: 'success', text: 'Synced.' } },
      };
    },
  },
};
