/** Okta: a SAML or SWA app integration with SCIM provisioning (Okta cannot add SCIM to an OIDC app). */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

export const okta: ScimGuide = {
  idp: 'Okta',
  url: { label: 'SCIM connector base URL' },
  tokenField: 'Bearer token',
  steps: () => [
    html`In the Okta Admin Console, open <strong>Applications › Applications</strong> and the app you use to sign in to this service. No app yet: <strong>Create App Integration</strong>, choose <strong>SAML 2.0</strong> or <strong>SWA</strong> (Okta does not offer SCIM on OIDC apps).`,
    html`On the <strong>General</strong> tab, under <strong>App Settings</strong>, click <strong>Edit</strong>, set <strong>Provisioning</strong> to <strong>SCIM</strong> and save.`,
    html`On the <strong>Provisioning</strong> tab, open <strong>Integration</strong> and click <strong>Edit</strong>. Paste the <strong>SCIM connector base URL</strong> from above and set <strong>Unique identifier field for users</strong> to <code>userName</code>.`,
    html`Under <strong>Supported provisioning actions</strong>, tick <strong>Push New Users</strong>, <strong>Push Profile Updates</strong> and <strong>Push Groups</strong>.`,
    html`Set <strong>Authentication Mode</strong> to <strong>HTTP Header</strong> and paste a token from this page into <strong>Bearer</strong> (the token alone, without the word “Bearer”). Click <strong>Test Connector Configuration</strong>, then <strong>Save</strong>.`,
    html`Still on <strong>Provisioning</strong>, open <strong>To App</strong>, click <strong>Edit</strong>, enable <strong>Create Users</strong>, <strong>Update User Attributes</strong> and <strong>Deactivate Users</strong>, and save.`,
    html`On the <strong>Assignments</strong> tab, assign the people (or groups of people) who should have access. Each one is sent here within a minute or so.`,
    html`On the <strong>Push Groups</strong> tab, choose <strong>Push Groups › Find groups by name</strong> (or <strong>by rule</strong>), pick the groups this service should know about and save.`,
  ],
  notes: [
    html`Assigning a group (step 7) gives its members access but does <em>not</em> send the group itself: only groups listed under <strong>Push Groups</strong> arrive, with their members.`,
    html`Okta never deletes a user: removing someone from the app sends them as deactivated.`,
    html`Only attributes mapped under <strong>To App › Attribute Mappings</strong> are sent; given name, family name and primary email are mapped by default.`,
  ],
};
