/** Rippling: a custom app with SCIM user management. */
import { html } from '../../html.js';
import type { ScimGuide } from '../scim-section.js';

export const rippling: ScimGuide = {
  idp: 'Rippling',
  url: { label: 'SCIM Base URL' },
  tokenField: 'Bearer Token',
  steps: () => [
    html`In Rippling, create a custom app (under <strong>IT › Third-Party Access</strong> or <strong>Custom App</strong>, depending on your Rippling), tick <strong>User Management via SCIM</strong> and continue.`,
    html`Set <strong>SCIM Version</strong> to <strong>2.0</strong>, paste the <strong>SCIM Base URL</strong> from above and set <strong>SCIM Authorization Method</strong> to <strong>Bearer Token</strong>.`,
    html`Tick <strong>Supports Groups</strong>, <strong>Supports Pagination</strong>, <strong>Create &amp; Delete Groups</strong> and <strong>Use PATCH to edit Groups</strong>.`,
    html`Under <strong>Supported SCIM Attributes</strong>, add <code>externalId</code>, <code>emails.primary</code>, <code>name.givenName</code> and <code>name.familyName</code>.`,
    html`Install the app, paste a token from this page as the <strong>Bearer Token</strong>, then choose who gets access (app access rules) and when accounts are created.`,
  ],
  notes: [
    html`Rippling creates accounts from employment events (hire, change, termination), so a new user may only arrive on their start date.`,
  ],
};
