/** Personio: an API credential (client id and secret) with read-only scopes. */
import { html } from '../../html.js';
import type { HrisGuide } from '../hris-section.js';

export const personioGuide: HrisGuide = {
  idp: 'Personio',
  intro:
    "This service reads your company's persons and their employments from Personio (read only), all of them at each sync: each person with a work email becomes a user, each department a group.",
  fields: [
    { name: 'client_id', label: 'Client ID' },
    { name: 'client_secret', label: 'Client secret', secret: true },
  ],
  steps: (webhookUrl) => [
    html`In Personio, as an administrator, open <strong>Settings › Integrations › API credentials</strong> and click <strong>Generate new credential</strong>. Name it (for example <em>Directory sync</em>).`,
    html`Give it read access only: the <strong>Persons</strong>, <strong>Employments</strong> and <strong>Org units</strong> read scopes, and no write scope.`,
    html`Copy the <strong>Client ID</strong> and the <strong>Client secret</strong>: Personio shows the secret once.`,
    html`Paste both below and click <strong>Connect Personio</strong>. Personio is asked at once; its answer is shown here, and nothing is kept unless it accepted them.`,
    html`Optional, for changes within seconds: add a webhook for person and employment changes pointing to <code>${webhookUrl}</code>. Personio's webhook carries no data; this service then reads Personio again.`,
  ],
};
