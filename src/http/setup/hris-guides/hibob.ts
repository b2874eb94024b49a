/** HiBob: a service user with a read-only permission group. */
import { html } from '../../html.js';
import type { HrisGuide } from '../hris-section.js';

export const hibobGuide: HrisGuide = {
  idp: 'HiBob',
  intro:
    "This service reads your company's employees from Bob (read only), all of them at each sync: each employee with a work email becomes a user, each department a group.",
  fields: [
    { name: 'service_user_id', label: 'Service user ID' },
    { name: 'token', label: 'Service user token', secret: true },
  ],
  steps: (webhookUrl) => [
    html`In Bob, as an administrator, open <strong>Settings › Integrations › Automation › Service users</strong> and click <strong>Create service user</strong>. Name it (for example <em>Directory sync</em>) and copy its <strong>ID</strong> and <strong>Token</strong>: Bob shows the token once.`,
    html`Open <strong>Settings › Account › Permission groups</strong>, create a group (for example <em>Directory sync, read only</em>) and add the service user to its members.`,
    html`In the group's <strong>People's data</strong> rights, allow <strong>View</strong> of the <strong>Basic info</strong>, <strong>Work</strong> and <strong>Employment</strong> sections for <strong>all employees, including former ones</strong>; grant nothing else (no edit rights).`,
    html`Paste the ID and token below and click <strong>Connect HiBob</strong>. Bob is asked at once; its answer is shown here, and nothing is kept unless it accepted them.`,
    html`Optional, for changes within seconds: in <strong>Settings › Integrations › Automation › Webhooks</strong>, add a webhook to <code>${webhookUrl}</code> for the employee events (created, updated, left, deleted). Bob's webhook says only that something changed; this service then reads Bob again.`,
  ],
  notes: [
    html`Bob allows 50 requests a minute for your company; this service stays within it (a sync costs two requests).`,
  ],
};
