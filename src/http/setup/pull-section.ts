/**
 * The section of a pull directory type (Google Workspace, Microsoft Entra ID): a "Connect" button that starts the
 * provider's consent in this browser through the one OAuth module (`dsync.oauth.start`: a single-use state, bound
 * to this browser by a cookie; the page's URL, which holds the link's secret, stays in the flow's record and never
 * goes to the provider), the provider's callback sends the browser back here with the result, then the sync's
 * state and "Sync now". Actions: `<flow>/connect`, `<flow>/sync`. (The HR systems connect with a key: hris-section.ts.)
 */
import type { Request } from 'express';
import type { Directory } from '../../core/model.js';
import type { SyncState } from '../../providers/pull/sync-status.js';
import type { SyncReport } from '../../providers/pull/runner.js';
import type { Dsync } from '../../service.js';
import { isHrisType } from '../../providers/hris/connector.js';
import { html, type Html } from '../html.js';
import { actionForm, when } from './fragments.js';
import type { PullStatus, SetupAction, SetupSection, SetupView } from './view-types.js';

const STATES: Record<SyncState, string> = {
  pending: 'Connected, waiting for the first sync',
  running: 'Syncing now',
  succeeded: 'Synced',
  failed: 'The last sync failed; the next one retries',
  guarded: 'Synced, but deletions were held back (too many at once)',
  invalid_credentials: 'The authorization was refused or revoked: connect again',
  not_authorized: 'Not connected yet',
};

export const syncStateText = (s: SyncState): string => STATES[s];

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

export interface PullProvider {
  /** The flow's name in providers/oauth, also the actions' prefix and the buttons' ids (`google-connect`). */
  flow: string;
  idp: string;
  /** What connecting means, for the IT admin (who must sign in, what is read). */
  intro: string;
  /** The notice back on the page once the provider's callback connected the directory. */
  connected: string;
  /** What the provider listed in its last run, when it says (Google does). */
  listedBy?: string;
  /** Origin of the provider's consent page: the "Connect" form is redirected there (CSP form-action). */
  consentOrigin(dsync: Dsync): string;
  sync(dsync: Dsync, directoryId: string): Promise<SyncReport>;
}

/** The last sync's state, last success and error (`listedBy`: what the provider listed, when it says). */
export function syncBlock(p: Pick<PullProvider, 'listedBy'>, sync: PullStatus | undefined): Html {
  const status = sync?.status;
  const listed = p.listedBy
    ? html`<div><dt>${p.listedBy}</dt><dd id="sync-listed">${status?.listed ? `${count(status.listed.users, 'user')}, ${count(status.listed.groups, 'group')}` : ''}</dd></div>`
    : '';
  return html`<dl class="counts" id="sync">
  <div><dt>Sync</dt><dd id="sync-state">${status ? syncStateText(status.state) : ''}</dd></div>
  <div><dt>Last success</dt><dd id="sync-last-success">${when(status?.last_success_at ?? null)}</dd></div>
  ${listed}
</dl>
<p id="sync-error" class="error-text"${status?.error ? '' : html` hidden`}>${status?.error?.message ?? ''}</p>`;
}

/**
 * The notice for the callback's return here (it adds `status`, and on failure `error` and `error_description`).
 * The reason is shown as text (escaped): only a holder of the link can put one in this URL.
 */
export function returnNotice(req: Request, section: SetupSection): SetupView['notice'] {
  const { status, error, error_description: description } = req.query as Record<string, unknown>;
  if (status === 'success') return { kind: 'success', text: section.connected ?? `${section.idp} is connected.` };
  if (status !== 'error') return undefined;
  const reason = String(description ?? error ?? 'unknown error').slice(0, 300);
  return {
    kind: 'error',
    text: `${section.idp} was not connected: ${reason}${/[.!?]$/.test(reason) ? '' : '.'} Try again.`,
  };
}

export function pullSection(p: PullProvider): SetupSection {
  const render = (view: SetupView): Html => {
    const connected = view.live.pull?.connected ?? false;
    return html`<section class="card" aria-labelledby="connect-h">
  <h2 id="connect-h">Connect ${p.idp}</h2>
  <p>${p.intro}</p>
  ${actionForm(view, `${p.flow}/connect`, html`<button type="submit" id="${p.flow}-connect">${connected ? `Connect ${p.idp} again` : `Connect ${p.idp}`}</button>`)}
  <h3>Sync</h3>
  ${syncBlock(p, view.live.pull)}
  ${actionForm(view, `${p.flow}/sync`, html`<button type="submit" class="secondary" id="sync-now"${connected ? '' : html` disabled`}>Sync now</button>`)}
</section>`;
  };
  return {
    idp: p.idp,
    pull: true,
    connected: p.connected,
    render,
    formTargets: (dsync) => [p.consentOrigin(dsync)],
    actions: {
      [`${p.flow}/connect`]: async ({ dsync, directory, pageUrl, linkId }) => {
        const started = await dsync.oauth.start({
          provider: p.flow,
          directoryId: directory.id,
          returnTo: pageUrl,
          setupLinkId: linkId,
        });
        return {
          data: { authorizationUrl: started.authorizationUrl },
          redirect: started.authorizationUrl,
          cookie: started.cookie,
        };
      },
      [`${p.flow}/sync`]: syncAction(p.sync),
    },
  };
}

/** "Sync now": the directory synced at once, the report to the script, a notice without it. */
export function syncAction(sync: (dsync: Dsync, directoryId: string) => Promise<SyncReport>): SetupAction {
  return async ({ dsync, directory }) => {
    const report = await sync(dsync, directory.id);
    const failed = report.failed > 0;
    return {
      data: report,
      page: {
        notice: failed
          ? { kind: 'error', text: 'The sync failed; see the error below.' }
          : { kind: 'success', text: 'Synced.' },
      },
    };
  };
}

/** The pull status the page shows for a directory of a pull type; undefined for the other types. */
export async function pullStatus(dsync: Dsync, directory: Directory): Promise<PullStatus | undefined> {
  if (directory.type === 'google') {
    const [sync, serviceAccount] = await Promise.all([
      dsync.google.syncStatus(directory.id),
      directory.google_refresh_token
        ? Promise.resolve(null)
        : dsync.store.getSyncRecord(directory.id, 'google-service-account'),
    ]);
    // Connected: an admin's consent gave tokens, or a service account was set (the operator's way).
    const connected = Boolean(directory.google_refresh_token) || serviceAccount !== null;
    return { connected, status: { ...sync, state: connected ? sync.state : 'not_authorized' } };
  }
  if (isHrisType(directory.type)) {
    const [sync, credentials] = await Promise.all([
      dsync.hris.syncStatus(directory.id),
      dsync.store.getSyncRecord(directory.id, 'hris-credentials'),
    ]);
    const connected = credentials !== null && sync.state !== 'invalid_credentials';
    return { connected, status: { ...sync, state: credentials === null ? 'not_authorized' : sync.state } };
  }
  if (directory.type === 'microsoft-entra') {
    const sync = await dsync.microsoft.syncStatus(directory.id);
    // Connected: the admin consent named the tenant, and Graph has not refused it since.
    const connected =
      Boolean(directory.microsoft_tenant_id) && sync.state !== 'not_authorized' && sync.state !== 'invalid_credentials';
    return {
      connected,
      status: { ...sync, state: connected || sync.state === 'invalid_credentials' ? sync.state : 'not_authorized' },
    };
  }
  return undefined;
}
