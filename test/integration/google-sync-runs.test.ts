/**
 * `POST /api/v1/dsync/cron/sync-google` with `Prefer: respond-async` (RFC 7240) answers 202 at
 * once with the Location of a run that goes on in the background, a second request joins the run going instead
 * of starting another, and `GET …/sync-google/<runId>` tells its state, each directory's progress and counts, and
 * errors; without the preference the route still syncs before answering. 40 Google directories on the fake Google
 * (each answer delayed, so the run lasts), real Redis.
 */
import { expect } from 'chai';
import { openStore, until } from '../support/harness.js';
import { startGoogleTest, type GoogleTest } from '../support/google-harness.js';

const DIRECTORIES = 40;
const USERS = 3;
const ROUTE = '/api/v1/dsync/cron/sync-google';

describe('Google sync as a background run: Prefer: respond-async (real Redis, fake Google, 40 directories)', function () {
  this.timeout(60_000);
  let t: GoogleTest;
  const dirs: any[] = [];
  const post = (query = '', prefer: string | null = 'respond-async') =>
    fetch(`${t.service.url}${ROUTE}${query}`, {
      method: 'POST',
      headers: { authorization: 'Api-Key test-api-key', ...(prefer && { prefer }) },
    });
  const get = async (location: string) => {
    const res = await fetch(`${t.service.url}${location}`, { headers: { authorization: 'Api-Key test-api-key' } });
    return { status: res.status, body: (await res.json()) as any };
  };

  before(async () => {
    t = await startGoogleTest(await openStore('redis', 14));
    for (let i = 0; i < USERS; i++) t.fake.addUser();
    for (let i = 0; i < DIRECTORIES; i++) dirs.push(await t.directory({ tenant: `run-${i}` }));
  });
  after(() => t?.close());

  it('answers 202 with the Location of the run at once, joins it on a second request, and the run records every directory', async () => {
    t.fake.delayMs = 10; // each directory takes a few Directory API calls: the run lasts a second or more
    const callsBefore = t.fake.calls.users;
    const first = await post();
    expect(first.status).to.equal(202);
    expect(first.headers.get('preference-applied')).to.equal('respond-async');
    const location = first.headers.get('location')!;
    const started = ((await first.json()) as any).data;
    expect(location).to.equal(`${ROUTE}/${started.id}`);
    expect(started).to.deep.include({
      provider: 'google',
      state: 'running',
      directory_id: null,
      finished_at: null,
      error: null,
    });
    expect(started.progress.directories).to.equal(DIRECTORIES);
    expect(started.directories.map((d: any) => d.id).sort()).to.deep.equal(dirs.map((d) => d.id).sort());

    // A retry (a proxy's, or the caller's) joins the run going instead of starting a second one.
    const again = await post('', 'Respond-Async, wait=5');
    expect(again.status).to.equal(202);
    expect(again.headers.get('location')).to.equal(location);

    const midway = await get(location);
    expect(midway.status).to.equal(200);
    expect(midway.body.data.state, 'answered before the run ended').to.equal('running');
    expect(midway.body.data.progress.done).to.be.below(DIRECTORIES);

    let run: any;
    await until(
      async () => (run = (await get(location)).body.data).state !== 'running',
      () => `the run to finish (${JSON.stringify(run?.progress)})`,
      45_000,
    );
    expect(run).to.deep.include({
      state: 'succeeded',
      created: DIRECTORIES * USERS,
      updated: 0,
      deleted: 0,
      failed: 0,
      error: null,
    });
    expect(run.progress).to.deep.equal({ directories: DIRECTORIES, done: DIRECTORIES });
    expect(Date.parse(run.finished_at)).to.be.at.least(Date.parse(run.started_at));
    for (const d of run.directories)
      expect(d)
        .to.deep.include({ state: 'succeeded', error: null })
        .and.nested.include({ 'counts.users_created': USERS });
    expect(t.fake.calls.users - callsBefore, 'one listing per directory: a single run').to.equal(DIRECTORIES);
  });

  it('starts a new run once the last one finished, and runs one directory with ?directoryId=', async () => {
    t.fake.delayMs = 0;
    const res = await post(`?directoryId=${dirs[0].id}`);
    expect(res.status).to.equal(202);
    const run = ((await res.json()) as any).data;
    expect(run).to.deep.include({ directory_id: dirs[0].id, progress: { directories: 1, done: 0 } });
    await until(
      async () => (await get(`${ROUTE}/${run.id}`)).body.data.state === 'succeeded',
      'the one-directory run to finish',
      10_000,
    );
    const next = await post();
    expect(next.headers.get('location')).to.not.equal(`${ROUTE}/${run.id}`);
    const id = ((await next.json()) as any).data.id;
    await until(
      async () => (await get(`${ROUTE}/${id}`)).body.data.state === 'succeeded',
      'the next run to finish',
      30_000,
    );
  });

  it('keeps the synchronous answer without the preference, and answers 404 for an unknown directory or run', async () => {
    const sync = await post(`?directoryId=${dirs[1].id}`, null);
    expect(sync.status).to.equal(200);
    expect(((await sync.json()) as any).data).to.deep.include({ created: 0, updated: 0, deleted: 0, failed: 0 });
    expect((await post('?directoryId=no-such-directory')).status, 'checked before anything starts').to.equal(404);
    const unknown = await get(`${ROUTE}/no-such-run`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.message).to.match(/Sync run no-such-run not found/);
  });

  it('reads a run whose process stopped before it finished as failed (abandoned)', async () => {
    const store = t.service.dsync.store;
    const orphan = {
      id: 'orphan-run',
      provider: 'google',
      state: 'running',
      directory_id: null,
      started_at: new Date().toISOString(),
      finished_at: null,
    };
    await store.putSyncRun(
      'orphan-run',
      JSON.stringify({
        ...orphan,
        progress: { directories: 1, done: 0 },
        directories: [],
        created: 0,
        updated: 0,
        deleted: 0,
        failed: 0,
        error: null,
      }),
      60_000,
    );
    const read = await get(`${ROUTE}/orphan-run`);
    expect(read.body.data).to.deep.include({ state: 'failed' });
    expect(read.body.data.error.code).to.equal('DSYNC_SYNC_RUN_ABANDONED');
  });
});
