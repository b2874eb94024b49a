/**
 * What the setup page shows and does for one directory type. Each type has a module (guides/*.ts for the SCIM
 * identity providers, pull-section.ts for Google Workspace and Microsoft Entra ID): its section of the page and the
 * POST actions it adds under
 * `/setup/<link>/<action>`. A new type (or a "Connect" button for one) is a new module in `sections-by-type.ts`.
 */
import type { ActivityEntry } from '../../core/store-port.js';
import type { AttributeMapping, Directory } from '../../core/model.js';
import type { CreatedScimToken, ScimTokenView } from '../../core/scim-tokens.js';
import type { FlowCookie } from '../../providers/oauth/browser-flows.js';
import type { BaseSyncStatus } from '../../providers/pull/sync-status.js';
import type { Dsync } from '../../service.js';
import type { Html } from '../html.js';

/** Waiting for the first request, or receiving (the IdP has called). */
export interface LiveStatus {
  state: 'waiting' | 'receiving';
  users: number;
  groups: number;
  last_request_at: string | null;
  recent: ActivityEntry[];
  tokens: ScimTokenView[];
  /** Pull types (Google Workspace, Microsoft Entra ID): whether the directory is connected, and its last sync. */
  pull?: PullStatus;
}

export interface PullStatus {
  connected: boolean;
  /** What the provider listed is there when it says (Google). */
  status: BaseSyncStatus & { listed?: { users: number; groups: number } };
}

export interface SetupView {
  /** The relative path from the page to the setup routes' mount point (`./` on the page itself). */
  root: string;
  /** The link's secret part: form actions are `${root}${link}/<action>`. */
  link: string;
  csrf: string;
  directory: Pick<Directory, 'id' | 'name' | 'type' | 'managed_by'>;
  scimUrl: string;
  expiresAt: string;
  live: LiveStatus;
  /** A token just created (shown on this response only). */
  newToken?: CreatedScimToken;
  notice?: { kind: 'success' | 'error'; text: string };
  /** The Attributes section (attributes-section.ts), when the application asked for attributes. */
  attributes?: AttributesView;
}

export interface ActionContext {
  dsync: Dsync;
  directory: Directory;
  /** The form fields (urlencoded) or JSON body of the POST. */
  fields: Record<string, unknown>;
  /** This page's own absolute URL (where the browser comes back to). */
  pageUrl: string;
  /** The id of the setup link the page was opened with: a flow started here dies with it. */
  linkId: string;
}

export interface ActionOutcome {
  /** What the page's script receives (JSON). */
  data: unknown;
  /** Where the browser goes next, with or without the script (a consent page). */
  redirect?: string;
  /** Set on the browser with the answer (an OAuth flow's cookie, which its callback checks). */
  cookie?: FlowCookie;
  /** Without the script: the page rendered again with this (otherwise the browser is sent back to the page). */
  page?: PageChanges;
}

/** What an action changes on the page rendered again: a new token, a notice, the attributes as edited. */
export type PageChanges = Pick<SetupView, 'newToken' | 'notice'> & { attributes?: AttributesEdit };

export type SetupAction = (ctx: ActionContext) => Promise<ActionOutcome>;

export interface SetupSection {
  /** The identity provider as the IT admin knows it. */
  idp: string;
  render(view: SetupView): Html;
  /** Action name (a path, e.g. `google/connect`) → what it does. */
  actions: Record<string, SetupAction>;
  /** A pull type (the service fetches, nothing is pushed): no "recent requests", and the last sync is shown. */
  pull?: boolean;
  /** The notice when the browser comes back from a consent that connected the directory. */
  connected?: string;
  /** Origins the page's forms may lead to besides its own (CSP form-action), e.g. a consent page. */
  formTargets?: (dsync: Dsync) => string[];
}

/** The Attributes section (attributes-section.ts): what the IdP sent, by path, in a sample of users. */
export interface SeenPath {
  path: string;
  /** The value of the first sampled user that has one. */
  example: unknown;
  /** How many sampled users have a value there. */
  users: number;
}

export interface PreviewRow {
  id: string;
  user_name: string;
  custom_attributes: Record<string, unknown>;
}

export interface AttributesView {
  /** The names the application asked for and their sources: stored, or as the admin just edited them. */
  mapping: AttributeMapping;
  seen: SeenPath[];
  sampled: number;
  preview?: PreviewRow[];
}

/** What a no-script Preview renders the page with: the mapping as edited, and its preview. */
export type AttributesEdit = Pick<AttributesView, 'mapping' | 'preview'>;
