/** The setup page's section of each directory type: one module per identity provider (add a type here). */
import type { DirectoryType } from '../../core/model.js';
import { googleSection } from './google-section.js';
import { bamboohrGuide } from './hris-guides/bamboohr.js';
import { hibobGuide } from './hris-guides/hibob.js';
import { personioGuide } from './hris-guides/personio.js';
import { hrisSection } from './hris-section.js';
import { entra } from './guides/entra.js';
import { generic } from './guides/generic.js';
import { jumpcloud } from './guides/jumpcloud.js';
import { microsoftSection } from './microsoft-section.js';
import { okta } from './guides/okta.js';
import { onelogin } from './guides/onelogin.js';
import { ping } from './guides/ping.js';
import { rippling } from './guides/rippling.js';
import { scimSection } from './scim-section.js';
import type { SetupSection } from './view-types.js';

export const SETUP_SECTIONS: Record<DirectoryType, SetupSection> = {
  'okta-scim-v2': scimSection(okta),
  'azure-scim-v2': scimSection(entra),
  'onelogin-scim-v2': scimSection(onelogin),
  'jumpcloud-scim-v2': scimSection(jumpcloud),
  'ping-scim-v2': scimSection(ping),
  'rippling-scim-v2': scimSection(rippling),
  'generic-scim-v2': scimSection(generic),
  google: googleSection,
  'microsoft-entra': microsoftSection,
  bamboohr: hrisSection(bamboohrGuide),
  hibob: hrisSection(hibobGuide),
  personio: hrisSection(personioGuide),
};
