/** Management API (SPEC §4.1) under /api/v1/directory-sync, plus the cron routes under /api/v1/dsync/cron. */
import { Router, type Request } from 'express';
import { ValidationError } from '../core/errors.js';
import type { DirectoryScope } from '../core/queries.js';
import type { Dsync } from '../service.js';
import { ok } from './envelope.js';
import { pageOf } from './paging.js';
import { idParam, parseScopeQuery } from './params.js';

function scopeOf(req: Request): DirectoryScope {
  const { directoryId, tenant, product } = parseScopeQuery(req.query);
  return {
    ...(directoryId && { directoryId }),
    ...(tenant && { tenant }),
    ...(product && { product }),
  };
}

export function managementRoutes(dsync: Dsync): Router {
  const r = Router();
  const { directories, queries } = dsync;
  r.param('id', idParam);

  r.post('/directory-sync', async (req, res) => ok(res, await directories.create(req.body), 201));
  r.get('/directory-sync', async (req, res) => {
    const { tenant, product } = scopeOf(req);
    if (!tenant || !product) throw new ValidationError('Provide both tenant and product', tenant ? 'product' : 'tenant');
    ok(res, await directories.list({ tenant, product }));
  });

  r.get('/directory-sync/users', async (req, res) => ok(res, await queries.listUsers(scopeOf(req), pageOf(req))));
  r.get('/directory-sync/users/:id', async (req, res) => ok(res, await queries.getUser(scopeOf(req), req.params.id)));
  r.get('/directory-sync/groups', async (req, res) => ok(res, await queries.listGroups(scopeOf(req), pageOf(req))));
  r.get('/directory-sync/groups/:id', async (req, res) => ok(res, await queries.getGroup(scopeOf(req), req.params.id)));
  r.get('/directory-sync/groups/:id/members', async (req, res) =>
    ok(res, await queries.groupMembers(scopeOf(req), req.params.id, pageOf(req))),
  );

  r.get('/directory-sync/:id', async (req, res) => ok(res, await directories.get(req.params.id)));
  r.patch('/directory-sync/:id', async (req, res) => {
    const updated = await directories.update(req.params.id, req.body);
    // A re-enabled webhook (or a new one) resumes delivery of what waited.
    dsync.delivery.notify(updated.id);
    ok(res, updated);
  });
  r.delete('/directory-sync/:id', async (req, res) => {
    await directories.delete(req.params.id);
    ok(res, { id: req.params.id, deleted: true });
  });

  r.post('/dsync/cron/process-events', async (_req, res) => ok(res, await dsync.processEvents()));
  return r;
}
