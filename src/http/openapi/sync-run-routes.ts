/**
 * A pull provider's cron routes (docs/reference/http-api.md), the same for every provider, under /api/v1:
 *   POST /dsync/cron/sync-<provider>[?directoryId=]            syncs, then answers the report (200)
 *        with `Prefer: respond-async` (RFC 7240)               202 at once, `Location` of the run, started or joined
 *   GET  /dsync/cron/sync-<provider>/<runId>                   the run: state, each directory's progress, counts, errors
 * A sync over many directories outlives a proxy's timeout (the caller sees a 504 while it goes on, and its retry
 * would start a second): the asynchronous form answers before any proxy gives up, and a retry joins the run.
 */
import { z } from 'zod';
import type { RunReport, SyncFilter, SyncRun, SyncRuns } from '../../providers/pull/sync-runs.js';
import type { Dsync } from '../../service.js';
import { idParam } from './params.js';
import { API_PREFIX, Answer, route, type ApiRoute } from './route-table.js';

/** `Prefer: respond-async, wait=10` → whether respond-async is asked for (preference names are case-insensitive). */
export const respondAsync = (prefer: string | undefined): boolean =>
  (prefer ?? '').split(',').some((p) => p.split(/[=;]/)[0]!.trim().toLowerCase() === 'respond-async');

const preferHeader = z.object({
  prefer: z
    .string()
    .optional()
    .describe(
      '`respond-async` (RFC 7240): answer 202 at once with the Location of a background run (joining the one going), instead of syncing first',
    ),
});

export interface SyncRunRouteOptions {
  /** `google` → /dsync/cron/sync-google. */
  provider: string;
  /** `Google` → operationIds `syncGoogle`, `getGoogleSyncRun`. */
  name: string;
  tag: string;
  /** e.g. "every active Google directory". */
  what: string;
  /** What a sync does, the description's first sentence. */
  does: string;
  /** The `?directoryId=` query (a z.object). */
  query: z.ZodType<{ directoryId?: string | undefined }>;
  report: z.ZodType<RunReport>;
  run: z.ZodType<SyncRun>;
  sync(dsync: Dsync, filter: SyncFilter): Promise<RunReport>;
  runs(dsync: Dsync): Pick<SyncRuns, 'start' | 'get'>;
}

const text = { type: 'string' };

export function syncRunRoutes(o: SyncRunRouteOptions): ApiRoute[] {
  const path = `/dsync/cron/sync-${o.provider}`;
  return [
    route({
      method: 'post',
      path,
      operationId: `sync${o.name}`,
      summary: `Sync ${o.what} (or one) now; with Prefer: respond-async, in the background`,
      description:
        `${o.does} A directory that fails is reported in the answer (\`failed\`), not as an error status. With ` +
        '`Prefer: respond-async` the answer is a 202 at once, with the `Location` of the run to read (kept in the store, so any ' +
        'replica answers for it); a request while a run for the same filter goes joins it instead of starting another.',
      tag: o.tag,
      query: o.query,
      headers: preferHeader,
      responses: {
        200: { description: 'What each directory did; a failing directory is reported, not an error', data: o.report },
        202: {
          description: 'Prefer: respond-async: the run started, or the one already going for the same filter',
          data: o.run,
          headers: {
            Location: { description: `The run: ${API_PREFIX}${path}/<runId>`, schema: text, required: true },
            'Preference-Applied': { description: '`respond-async`', schema: text, required: true },
          },
        },
      },
      errors: [404],
      handle: async ({ query, headers }, dsync, res) => {
        const filter = query.directoryId !== undefined ? { directoryId: query.directoryId } : {};
        if (!respondAsync(headers.prefer)) return o.sync(dsync, filter);
        const run = await o.runs(dsync).start(filter);
        res.setHeader('Location', `${API_PREFIX}${path}/${encodeURIComponent(run.id)}`);
        res.setHeader('Preference-Applied', 'respond-async');
        return new Answer(202, run);
      },
    }),
    route({
      method: 'get',
      path: `${path}/:runId`,
      operationId: `get${o.name}SyncRun`,
      summary: `A background sync run (POST ${path} with Prefer: respond-async): state, each directory's progress and counts, errors`,
      description:
        'Running (each directory pending, running, then its outcome), then succeeded (every directory was tried, each reporting ' +
        'its own outcome) or failed (the run stopped: the store failed, or the process running it stopped). Kept in the store ' +
        '24 h after its last change: any replica answers.',
      tag: o.tag,
      params: z.object({ runId: idParam('runId').describe('The id in the Location of the 202') }),
      responses: { 200: { description: 'The run', data: o.run } },
      errors: [404],
      handle: ({ params }, dsync) => o.runs(dsync).get(params.runId),
    }),
  ];
}
