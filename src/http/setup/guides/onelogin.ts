/** OneLogin: the "SCIM Provisioner with SAML (SCIM v2 …)" app from its catalog. */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

export const onelogin: ScimGuide = {
  idp: 'OneLogin',
  url: { label: 'SCIM Base URL' },
  tokenField: 'SCIM Bearer Token',
  steps: () => [
    html`In OneLogin's administration, go to <strong>Applications › Add App</strong>, search for <strong>SCIM Provisioner with SAML</strong> and pick the <strong>SCIM v2 Enterprise</strong> (or <strong>SCIM v2 Core</strong>) variant. Name it and save.`,
    html`On the <strong>Configuration</strong> tab, paste the <strong>SCIM Base URL</strong> from above and a token from this page into <strong>SCIM Bearer Token</strong>.`,
    html`Leave the <strong>SCIM JSON Template</strong> as proposed unless you need more attributes; it must send <code>userName</code> (usually the email) and the name.`,
    html`Under <strong>API Connection</strong>, click <strong>Enable</strong>: OneLogin checks the connection at once (it shows below as a request).`,
    html`On the <strong>Provisioning</strong> tab, tick <strong>Enable provisioning</strong>. Untick the admin approvals for create, delete and update if changes should flow without one, choose what a deletion or suspension in OneLogin does (for example <strong>Suspend</strong>), and save.`,
    html`To send groups, open the <strong>Parameters</strong> tab, edit <strong>Groups</strong>, tick <strong>Include in User Provisioning</strong> and save; then use <strong>Rules</strong> to decide which roles or groups are sent.`,
    html`Give people access through <strong>Users › Applications</strong> or a role that has the app. They appear here when OneLogin provisions them.`,
  ],
  notes: [
    html`OneLogin sends what its <strong>SCIM JSON Template</strong> says, and an admin can edit it: if a user is refused below, the error names the attribute the template sends wrong.`,
  ],
};
