/**
 * The Admin SDK Directory API, read side: users, groups and a group's members, page by page (`nextPageToken`),
 * with `customer=my_customer` so every domain of the workspace is listed. Each request is paced and retried
 * (google-retry.ts); each page is checked for the shape Google sends, so a cut-off or garbled page is an
 * error (never "the listing ended here"), and a repeated page token stops the listing instead of paging forever.
 */
import { admin_directory_v1 } from '@googleapis/admin';
import { z } from 'zod';
import { expireToken, type GoogleAuthClient } from './credentials.js';
import { IncompleteListingError } from './errors.js';
import { withRetries, type Failure, type RetryOptions } from './google-retry.js';
import type { Pacer } from './pacer.js';

const googleUser = z.looseObject({
  id: z.string().min(1),
  primaryEmail: z.string().min(1),
  name: z
    .looseObject({
      givenName: z.string().optional(),
      familyName: z.string().optional(),
      fullName: z.string().optional(),
    })
    .optional(),
  suspended: z.boolean().optional(),
  archived: z.boolean().optional(),
  // Google answers each as a list, or leaves it out; an entry of another shape is left for the mapping to ignore.
  organizations: z
    .array(
      z.looseObject({
        primary: z.boolean().optional(),
        title: z.string().optional(),
        department: z.string().optional(),
        costCenter: z.string().optional(),
      }),
    )
    .optional(),
  externalIds: z.array(z.looseObject({ type: z.string().optional(), value: z.string().optional() })).optional(),
  relations: z.array(z.looseObject({ type: z.string().optional(), value: z.string().optional() })).optional(),
  // Kept as Google sends them, for the provider fields (`google:<field>`).
  orgUnitPath: z.string().optional(),
  isAdmin: z.boolean().optional(),
  recoveryEmail: z.string().optional(),
  locations: z.array(z.looseObject({})).optional(),
  phones: z.array(z.looseObject({})).optional(),
  addresses: z.array(z.looseObject({})).optional(),
  /**
   * Schema name → field name → value (a multi-valued field: a list of `{value, type}`); only with `projection=full`.
   */
  customSchemas: z.record(z.string(), z.looseObject({})).optional(),
});
const googleGroup = z.looseObject({
  id: z.string().min(1),
  email: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
});
const googleMember = z.looseObject({
  id: z.string().optional(),
  email: z.string().optional(),
  type: z.string().optional(),
  role: z.string().optional(),
  status: z.string().optional(),
});
export type GoogleUser = z.infer<typeof googleUser>;
export type GoogleGroup = z.infer<typeof googleGroup>;
export type GoogleMember = z.infer<typeof googleMember>;

const pageOf = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.looseObject({ [key]: z.array(item).optional(), nextPageToken: z.string().optional() } as Record<
    K | 'nextPageToken',
    z.ZodType
  >);

/** A page that is not what Google sends (cut off, garbled): retried like a network failure. */
class MalformedPage extends Error {}

const USER_PAGE = 500;
const GROUP_PAGE = 200;
const MEMBER_PAGE = 200;

export interface DirectoryApiOptions {
  auth: GoogleAuthClient;
  /** Root of the API (DSYNC_GOOGLE_API_URL). */
  rootUrl: string;
  pacer: Pacer;
  retry: RetryOptions;
  /** Called for every HTTP request made (retries included), and for every retry. */
  onRequest?: () => void;
  onRetry?: (failure: Failure) => void;
}

export class DirectoryApi {
  private readonly admin: admin_directory_v1.Admin;
  private readonly rootUrl: string;

  constructor(private readonly options: DirectoryApiOptions) {
    this.admin = new admin_directory_v1.Admin({ auth: options.auth as unknown as admin_directory_v1.Options['auth'] });
    this.rootUrl = options.rootUrl.endsWith('/') ? options.rootUrl : `${options.rootUrl}/`;
  }

  /** `projection=full`: the users' custom schema values too (`basic` leaves them out), in the same requests. */
  users(): AsyncGenerator<GoogleUser[]> {
    return this.pages('users', 'users', googleUser, (pageToken) =>
      this.admin.users.list(
        { customer: 'my_customer', maxResults: USER_PAGE, projection: 'full', ...(pageToken && { pageToken }) },
        this.call(),
      ),
    );
  }

  groups(): AsyncGenerator<GoogleGroup[]> {
    return this.pages('groups', 'groups', googleGroup, (pageToken) =>
      this.admin.groups.list(
        { customer: 'my_customer', maxResults: GROUP_PAGE, ...(pageToken && { pageToken }) },
        this.call(),
      ),
    );
  }

  /** `derived`: nested groups expanded by Google (`includeDerivedMembership`). */
  members(groupKey: string, derived: boolean): AsyncGenerator<GoogleMember[]> {
    return this.pages(`members of group ${groupKey}`, 'members', googleMember, (pageToken) =>
      this.admin.members.list(
        {
          groupKey,
          maxResults: MEMBER_PAGE,
          ...(derived && { includeDerivedMembership: true }),
          ...(pageToken && { pageToken }),
        },
        this.call(),
      ),
    );
  }

  /** Per-call options: our root URL, and no gaxios retries (ours cover the 403 reasons gaxios skips). */
  private call() {
    return { rootUrl: this.rootUrl, retry: false, timeout: 60_000 };
  }

  /** One request; on a 401 the access token is refreshed and the request made once more. */
  private async authorized<R>(request: () => Promise<R>): Promise<R> {
    this.options.onRequest?.();
    try {
      return await request();
    } catch (err) {
      if ((err as { response?: { status?: number } }).response?.status !== 401) throw err;
      expireToken(this.options.auth);
      this.options.onRequest?.();
      return request();
    }
  }

  private async *pages<T>(
    what: string,
    key: string,
    item: z.ZodType<T>,
    fetch: (pageToken: string | undefined) => Promise<{ data: unknown }>,
  ): AsyncGenerator<T[]> {
    const schema = pageOf(key, item);
    const seen = new Set<string>();
    let pageToken: string | undefined;
    for (;;) {
      const page = await withRetries(
        async () => {
          const { data } = await this.authorized(() => fetch(pageToken));
          const parsed = schema.safeParse(data);
          if (!parsed.success) throw new MalformedPage(`malformed page of ${what}`);
          return parsed.data as { nextPageToken?: string } & Record<string, T[] | undefined>;
        },
        `listing ${what}`,
        this.options.retry,
        () => this.options.pacer.take(),
        this.options.onRetry,
      );
      yield page[key] ?? [];
      const next = page.nextPageToken;
      if (!next) return;
      if (seen.has(next)) throw new IncompleteListingError(`${what}: Google repeated a page token`);
      seen.add(next);
      pageToken = next;
    }
  }
}
