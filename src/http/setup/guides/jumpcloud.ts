/** JumpCloud: Identity Management (custom SCIM) on an SSO application. */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

export const jumpcloud: ScimGuide = {
  idp: 'JumpCloud',
  url: { label: 'Base URL' },
  tokenField: 'Token Key',
  steps: () => [
    html`In the JumpCloud Admin Portal, open <strong>SSO Applications</strong> and the app you use for this service (or add a <strong>Custom SAML App</strong>: JumpCloud offers SCIM on SSO apps).`,
    html`Open the app's <strong>Identity Management</strong> tab and choose <strong>SCIM 2.0</strong>.`,
    html`Paste the <strong>Base URL</strong> from above, a token from this page into <strong>Token Key</strong>, and the email of a real user into <strong>Test User Email</strong>.`,
    html`To send groups, enable <strong>Group Management</strong> (management of user groups and group membership).`,
    html`Click <strong>Test Connection</strong>, then <strong>Activate</strong>, then <strong>Save</strong>.`,
    html`On the app's <strong>User Groups</strong> tab, tick the groups whose members should have access and save: their users (and, with group management, the groups) are sent here.`,
  ],
  notes: [
    html`<strong>Test Connection</strong> creates a test user and a test group and deletes them again: those requests show below, and that is expected.`,
    html`JumpCloud sends the groups bound to the app; a user outside them is not sent.`,
  ],
};
