/** BambooHR: an API key of a user who may see every employee, and optionally a signed webhook. */
import { html } from '../../html.js';
import type { HrisGuide } from '../hris-section.js';

export const bamboohrGuide: HrisGuide = {
  idp: 'BambooHR',
  intro:
    "This service reads your company's employees from BambooHR (read only): each employee with a work email becomes a user, each department a group. After the first sync it reads only the employees BambooHR reports as changed.",
  fields: [
    {
      name: 'subdomain',
      label: 'Company subdomain',
      hint: 'The part before .bamboohr.com in your BambooHR address: acme for acme.bamboohr.com.',
    },
    { name: 'api_key', label: 'API key', secret: true },
    {
      name: 'webhook_secret',
      label: 'Webhook private key',
      secret: true,
      optional: true,
      hint: 'Only if you set up the webhook (step 5): without it, webhook calls are refused.',
    },
  ],
  steps: (webhookUrl) => [
    html`Sign in to BambooHR as a user who can see every employee's job and contact information, and nothing you would not share: an API key has exactly its user's access. A user with a <strong>view-only</strong> access level covering all employees is best (the key is never used to write).`,
    html`Click your name or photo at the top right and choose <strong>API Keys</strong>.`,
    html`Click <strong>Add New Key</strong>, name it (for example <em>Directory sync</em>) and click <strong>Generate Key</strong>. Copy the key now: BambooHR shows it once.`,
    html`Paste the key below with your company subdomain and click <strong>Connect BambooHR</strong>. BambooHR is asked at once; its answer is shown here, and nothing is kept unless it accepted the key.`,
    html`Optional, for changes within seconds: in <strong>Settings › Webhooks</strong> (an account administrator's page), click <strong>Add Webhook</strong>, paste <code>${webhookUrl}</code> as its URL, monitor <strong>Employment Status</strong>, <strong>First Name</strong>, <strong>Last Name</strong>, <strong>Work Email</strong>, <strong>Department</strong>, <strong>Job Title</strong> and <strong>Reporting to</strong>, click <strong>Generate</strong> under <strong>Private Key</strong>, save, and paste that key below as the webhook private key.`,
  ],
  notes: [
    html`Without the webhook, changes arrive with the next scheduled sync (every few minutes, as your platform team set it).`,
    html`Employees without a work email are not users; divisions and locations are not groups.`,
  ],
};
