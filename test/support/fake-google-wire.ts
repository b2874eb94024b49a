/**
 * The fake Google's wire format (fake-google.ts): its model of users, groups and members, and what goes out in
 * Google's shapes: resources, JSON answers, error bodies and page tokens.
 */
import type { ServerResponse } from 'node:http';

export interface GUser {
  id: string;
  primaryEmail: string;
  name: { givenName: string; familyName: string; fullName: string };
  suspended: boolean;
  archived: boolean;
  orgUnitPath: string;
  /** Other addresses of the user: a renamed user keeps its old primary address as one. */
  aliases: string[];
  organizations?: Array<{ primary?: boolean; title?: string; department?: string; costCenter?: string; name?: string }>;
  externalIds?: Array<{ type: string; value: string }>;
  relations?: Array<{ type: string; value: string }>;
  isAdmin?: boolean;
  recoveryEmail?: string;
  locations?: Array<{ type: string; area: string; buildingId?: string; floorName?: string; deskCode?: string }>;
  phones?: Array<{ value: string; type: string; primary?: boolean }>;
  addresses?: Array<{
    type: string;
    formatted?: string;
    locality?: string;
    region?: string;
    country?: string;
    countryCode?: string;
    primary?: boolean;
  }>;
  /** Schema name → field name → value; Google sends them with `projection=full` only. */
  customSchemas?: Record<string, Record<string, unknown>>;
}
export interface GGroup {
  id: string;
  email: string;
  name: string;
  description: string;
  aliases: string[];
}
export interface GMember {
  id: string;
  email: string;
  type: 'USER' | 'GROUP' | 'CUSTOMER' | 'EXTERNAL';
  role: 'MEMBER' | 'MANAGER' | 'OWNER';
  status: string;
}

export const STATUS_TEXT: Record<number, [string, string, string]> = {
  400: ['INVALID_ARGUMENT', 'global', 'invalid'],
  401: ['UNAUTHENTICATED', 'global', 'authError'],
  403: ['PERMISSION_DENIED', 'usageLimits', 'userRateLimitExceeded'],
  404: ['NOT_FOUND', 'global', 'notFound'],
  429: ['RESOURCE_EXHAUSTED', 'usageLimits', 'rateLimitExceeded'],
  500: ['INTERNAL', 'global', 'backendError'],
  503: ['UNAVAILABLE', 'global', 'backendError'],
};

/** Google's JSON error body. */
export function googleError(code: number, message: string, reason?: string) {
  const [status, domain, defaultReason] = STATUS_TEXT[code] ?? ['UNKNOWN', 'global', 'unknown'];
  return { error: { code, message, errors: [{ message, domain, reason: reason ?? defaultReason }], status } };
}

export const pageToken = (offset: number) => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
export function offsetOf(token: string | null): number | undefined {
  if (!token) return 0;
  try {
    const o = (JSON.parse(Buffer.from(token, 'base64url').toString()) as { o?: unknown }).o;
    return typeof o === 'number' && Number.isInteger(o) && o >= 0 ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Google sends `aliases` only for a user or group that has some. */
export const withAliases = (aliases: string[]) => (aliases.length > 0 ? { aliases } : {});

/** `full`: `projection=full`, with the custom schema values (the default `basic` leaves them out). */
export function userResource({ aliases, customSchemas, ...u }: GUser, full: boolean) {
  return {
    kind: 'admin#directory#user',
    etag: `"u-${Date.now()}"`,
    ...u,
    ...withAliases(aliases),
    ...(full && customSchemas && { customSchemas }),
    isAdmin: u.isAdmin ?? false,
    isDelegatedAdmin: false,
    // Volatile: changes at every listing, and must never cause an update.
    lastLoginTime: new Date().toISOString(),
    creationTime: '2024-01-01T00:00:00.000Z',
    agreedToTerms: true,
    changePasswordAtNextLogin: false,
    ipWhitelisted: false,
    emails: [{ address: u.primaryEmail, primary: true }, ...aliases.map((address) => ({ address }))],
    customerId: 'C0fake',
    isMailboxSetup: true,
    includeInGlobalAddressList: true,
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', ...headers }).end(JSON.stringify(body));
}
