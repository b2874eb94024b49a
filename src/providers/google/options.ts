/** Settings of the Google Workspace pull sync (DSYNC_GOOGLE_* in config.ts). Plain data. */

export const GOOGLE_DEFAULTS = {
  apiUrl: 'https://admin.googleapis.com/',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  authUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  /** Google's default Directory API quota: 2,400 queries per minute per project. */
  queriesPerMinute: 2400,
  /** A run that would delete more than this share of a directory's users and groups stops for that directory. */
  maxDeleteShare: 0.2,
} as const;

export interface GoogleOptions {
  /** OAuth client of a Google Cloud "web application" (the three-step flow); unset = only service accounts work. */
  clientId?: string;
  clientSecret?: string;
  redirectUrl: string;
  apiUrl: string;
  tokenUrl: string;
  authUrl: string;
  /** Directory API requests started per minute, across every directory of this process; 0 = not paced. */
  queriesPerMinute: number;
  maxDeleteShare: number;
  /** Seconds between in-process sync runs (`dsync serve`); unset = only the cron route / CronJob runs it. */
  syncIntervalSeconds?: number;
}

export function googleOptions(externalUrl: string, given: Partial<GoogleOptions> = {}): GoogleOptions {
  return {
    redirectUrl: `${externalUrl.replace(/\/+$/, '')}/api/v1/dsync/google/callback`,
    apiUrl: GOOGLE_DEFAULTS.apiUrl,
    tokenUrl: GOOGLE_DEFAULTS.tokenUrl,
    authUrl: GOOGLE_DEFAULTS.authUrl,
    queriesPerMinute: GOOGLE_DEFAULTS.queriesPerMinute,
    maxDeleteShare: GOOGLE_DEFAULTS.maxDeleteShare,
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  };
}

/** The three read-only Directory API scopes the sync needs: users, groups, group members. */
export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.member.readonly',
] as const;
