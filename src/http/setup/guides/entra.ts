/** Microsoft Entra ID: a non-gallery enterprise application with automatic provisioning. */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

/** Entra's opt-in to its standards-compliant SCIM behaviour, given as a query flag on the Tenant URL. */
export const ENTRA_SCIM_FLAG = 'aadOptscim062020';

export const entra: ScimGuide = {
  idp: 'Microsoft Entra ID',
  url: {
    label: 'Tenant URL',
    value: (scimUrl) => `${scimUrl}?${ENTRA_SCIM_FLAG}`,
    hint: html`This is the SCIM base URL with <code>?${ENTRA_SCIM_FLAG}</code> at the end: keep the flag when you paste it (see below).`,
  },
  tokenField: 'Secret Token',
  steps: () => [
    html`In the Microsoft Entra admin center, go to <strong>Enterprise applications</strong> and open the app you use to sign in to this service. No app yet: <strong>New application › Create your own application</strong>, name it, choose <strong>Integrate any other application you don't find in the gallery (Non-gallery)</strong> and create it.`,
    html`Open <strong>Provisioning</strong> and start it (<strong>Get started</strong> or <strong>Connect your application</strong>), then set <strong>Provisioning Mode</strong> to <strong>Automatic</strong>.`,
    html`Under <strong>Admin Credentials</strong>, paste the <strong>Tenant URL</strong> from above (with its <code>?${ENTRA_SCIM_FLAG}</code>) and a token from this page into <strong>Secret Token</strong>. Click <strong>Test Connection</strong>, then <strong>Save</strong>.`,
    html`Under <strong>Mappings</strong>, keep <strong>Provision Microsoft Entra ID Users</strong> enabled, and enable <strong>Provision Microsoft Entra ID Groups</strong> to send groups with their members. In the user mapping, <code>userName</code> must stay the matching attribute.`,
    html`Under <strong>Settings</strong>, set <strong>Scope</strong> to <strong>Sync only assigned users and groups</strong> (the usual choice).`,
    html`In <strong>Users and groups</strong> of the app, assign the people and groups who should have access.`,
    html`Back in <strong>Provisioning</strong>, set <strong>Provisioning Status</strong> to <strong>On</strong> and save. The first cycle starts within minutes; later ones run about every 40 minutes. <strong>Provision on demand</strong> sends one user at once, which is handy for a first test.`,
  ],
  notes: [
    html`<code>?${ENTRA_SCIM_FLAG}</code> asks Entra to follow the SCIM standard in its updates (lower-case operations, real true/false values, member removal by filter). This service accepts both kinds of request, but use the flag on a new connection: it is the behaviour Microsoft keeps improving.`,
    html`<strong>Test Connection</strong> looks up a user that does not exist and expects an empty answer: it shows here as a <code>GET /Users</code> that succeeded.`,
    html`A user who is unassigned or disabled in Entra arrives as deactivated first; Entra deletes only later, after a soft deletion ends.`,
  ],
};
