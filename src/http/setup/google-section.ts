/** Google Workspace on the setup page: connect through Google's consent, then the pull sync (pull-section.ts). */
import { GOOGLE_FLOW } from '../../providers/google/authorization.js';
import { pullSection } from './pull-section.js';

export const googleSection = pullSection({
  flow: GOOGLE_FLOW,
  idp: 'Google Workspace',
  intro:
    "This service reads your workspace's users and groups (read only). An administrator who can see all users and groups signs in to Google and allows it; you come back here afterwards.",
  connected: 'Google Workspace is connected. Click “Sync now” to read its users and groups.',
  listedBy: 'Listed by Google',
  consentOrigin: (dsync) => dsync.google.consentOrigin,
  sync: (dsync, directoryId) => dsync.google.sync({ directoryId }),
});
