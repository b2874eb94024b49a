/**
 * Microsoft Entra ID on the setup page: connect through the tenant's admin consent, then the pull sync
 * (pull-section.ts).
 */
import { MICROSOFT_FLOW } from '../../providers/microsoft/consent.js';
import { pullSection } from './pull-section.js';

export const microsoftSection = pullSection({
  flow: MICROSOFT_FLOW,
  idp: 'Microsoft Entra ID',
  intro:
    "This service reads your tenant's users and groups through Microsoft Graph (read only). An administrator who may grant tenant-wide consent (a Global or Privileged Role Administrator) signs in to Microsoft with an account of your tenant (not a guest account: the sign-in tells this service which tenant to connect), then accepts the permissions for your organisation; you come back here afterwards, and the first sync starts by itself.",
  connected: 'Microsoft Entra ID is connected: the first sync has started.',
  consentOrigin: (dsync) => dsync.microsoft.consentOrigin,
  sync: (dsync, directoryId) => dsync.microsoft.sync({ directoryId }),
});
