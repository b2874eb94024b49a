/** Ping Identity: a SCIM outbound provisioning connection in PingOne (PingFederate's SCIM connector is alike). */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

export const ping: ScimGuide = {
  idp: 'Ping Identity',
  url: { label: 'SCIM Base URL' },
  tokenField: 'OAuth Access Token',
  steps: () => [
    html`In PingOne, go to <strong>Integrations › Provisioning</strong>, click <strong>+</strong> and <strong>New connection</strong>, choose <strong>Identity Store</strong>, then the <strong>SCIM Outbound</strong> tile. Name it and continue.`,
    html`On the authentication step, paste the <strong>SCIM Base URL</strong> from above, keep <strong>Users Resource</strong> <code>/Users</code> (and <strong>Groups Resource</strong> <code>/Groups</code>), and set <strong>SCIM Version</strong> to <strong>2.0</strong>.`,
    html`Set <strong>Authentication Method</strong> to <strong>OAuth 2 Bearer Token</strong>, paste a token from this page into <strong>OAuth Access Token</strong> and keep the <strong>Auth Type Header</strong> <strong>Bearer</strong>. Click <strong>Test Connection</strong>.`,
    html`In the preferences, keep <code>userName</code> as the user identifier (the default filter <code>userName eq …</code>), allow create, update and disable, and choose what removal does (disable, or delete).`,
    html`Enable group provisioning if this service should receive groups with their members.`,
    html`Create a <strong>rule</strong> for the connection: the user filter decides who is sent (for example: enabled users of a population or group). Check the attribute mapping sends <code>userName</code>, the name and the email, then turn the rule and the connection on.`,
  ],
  notes: [
    html`PingFederate's SCIM connector asks for the same values: base URL, OAuth 2 bearer token, <code>userName</code> as the unique user identifier.`,
  ],
};
