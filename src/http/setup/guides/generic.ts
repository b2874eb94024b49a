/** Any SCIM 2.0 client: the values it needs and what this service expects. */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

export const generic: ScimGuide = {
  idp: 'your identity provider',
  url: { label: 'SCIM base URL' },
  tokenField: 'bearer token',
  steps: () => [
    html`In your identity provider, create (or open) the provisioning connection for this service and choose SCIM 2.0.`,
    html`Paste the <strong>SCIM base URL</strong> from above; users are at <code>/Users</code> and groups at <code>/Groups</code> under it.`,
    html`Choose bearer-token authentication and paste a token from this page: it is sent as <code>Authorization: Bearer &lt;token&gt;</code>.`,
    html`Use <code>userName</code> as the unique user attribute, and send the name and an email.`,
    html`Enable group push if this service should receive groups with their members, test the connection, then assign the people who should have access.`,
  ],
  notes: [
    html`The service describes itself at <code>/ServiceProviderConfig</code>, <code>/ResourceTypes</code> and <code>/Schemas</code> under the base URL: PATCH and filters are supported, bulk requests are not.`,
  ],
};
