/**
 * Microsoft Entra ID (the pull type on Graph): "Connect Microsoft Entra ID" runs the admin-consent flow (the
 * browser comes back to this page), "Sync now" runs the pull sync. Actions: `microsoft/connect`, `microsoft/sync`.
 */
import { html, type Html } from '../html.js';
import { actionForm } from './fragments.js';
import type { SetupSection, SetupView } from './section.js';

function render(view: SetupView): Html {
  return html`<section class="card" aria-labelledby="connect-h">
  <h2 id="connect-h">Connect Microsoft Entra ID</h2>
  <p>This service reads your tenant's users and groups through Microsoft Graph (read only). An administrator who may grant tenant-wide consent (a Global or Privileged Role Administrator) signs in to Microsoft and accepts; you come back here afterwards, and the first sync starts by itself.</p>
  ${actionForm(view, 'microsoft/connect', html`<button type="submit" id="microsoft-connect">Connect Microsoft Entra ID</button>`)}
  ${actionForm(view, 'microsoft/sync', html`<button type="submit" class="secondary" id="microsoft-sync-now">Sync now</button>`)}
</section>`;
}

export const microsoftSection: SetupSection = {
  idp: 'Microsoft Entra ID',
  pull: true,
  render,
  formTargets: (dsync) => [dsync.microsoft.consentOrigin],
  actions: {
    'microsoft/connect': async ({ dsync, directory, pageUrl }) => {
      const { adminConsentUrl } = await dsync.microsoft.adminConsentUrl({ directoryId: directory.id, redirectUrl: pageUrl });
      return { data: { adminConsentUrl }, redirect: adminConsentUrl };
    },
    'microsoft/sync': async ({ dsync, directory }) => {
      const report = await dsync.microsoft.sync({ directoryId: directory.id });
      const failed = report.failed > 0;
      return { data: report, page: { notice: failed ? { kind: 'error', text: 'The sync failed; try again later.' } : { kind: 'success', text: 'Synced.' } } };
    },
  },
};
