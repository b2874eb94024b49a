/**
 * `/readyz`: ready when the store answers (every master, on a cluster). A shard whose master has fewer replicas
 * in sync than DSYNC_REDIS_MIN_REPLICAS refuses writes, so it reads as not ready too, named apart from an
 * unreachable store (`below-min-replicas`, with the shards); a shard below DSYNC_REDIS_WAIT_REPLICAS but at the
 * minimum takes writes (counted as degraded) and is ready, listed under `degraded`. A stopping process is not
 * ready (`draining`) whatever its store says: nothing should route a new request to it.
 */
import type { RequestHandler } from 'express';
import { withDeadline } from '../../core/deadline.js';
import type { ShardReplication } from '../../core/store-port.js';
import type { Logger } from '../../logger.js';
import type { Dsync } from '../../service.js';

/** Well inside a probe's usual 1 s timeout, so a stalled store reads as "not ready" rather than a probe timeout. */
const READY_DEADLINE_MS = 500;

type Verdict = { status: 'ready' | 'unavailable' | 'below-min-replicas'; shards: ShardReplication[]; err?: unknown };

const shardJson = (s: ShardReplication) => ({
  master: s.master,
  replicas_in_sync: s.inSync,
  wait_replicas: s.wanted,
  min_replicas: s.minimum,
});

async function check(health: Dsync['health']): Promise<Verdict> {
  try {
    const probe = (async () => (await health.ping(), health.replication()))();
    const shards = await withDeadline(
      probe,
      READY_DEADLINE_MS,
      () => new Error(`no answer within ${READY_DEADLINE_MS} ms`),
    );
    return { status: shards.some((s) => s.inSync < s.minimum) ? 'below-min-replicas' : 'ready', shards };
  } catch (err) {
    return { status: 'unavailable', shards: [], err };
  }
}

export function readiness(
  health: Dsync['health'],
  logger: Logger,
  draining: () => boolean = () => false,
): RequestHandler {
  // Logged when readiness changes, not at every probe of an outage.
  let last: Verdict['status'] = 'ready';
  return async (_req, res) => {
    if (draining()) {
      res.status(503).setHeader('Retry-After', '1');
      res.json({ status: 'draining', store: health.store });
      return;
    }
    const { status, shards, err } = await check(health);
    if (status !== last) {
      const fields = {
        store: health.store,
        ...(err !== undefined && { err }),
        shards: shards.filter((s) => s.inSync < s.wanted).map(shardJson),
      };
      if (status === 'ready') logger.info(fields, 'store ready again');
      else
        logger.warn(
          fields,
          status === 'unavailable'
            ? 'store not reachable: not ready'
            : 'a shard has fewer replicas in sync than DSYNC_REDIS_MIN_REPLICAS: not ready',
        );
    }
    last = status;
    if (status === 'ready') {
      const degraded = shards.filter((s) => s.inSync < s.wanted).map(shardJson);
      res.json({ status, store: health.store, ...(degraded.length > 0 && { degraded }) });
      return;
    }
    res.status(503).setHeader('Retry-After', '1');
    res.json({
      status,
      store: health.store,
      ...(status === 'below-min-replicas' && { shards: shards.filter((s) => s.inSync < s.minimum).map(shardJson) }),
    });
  };
}
