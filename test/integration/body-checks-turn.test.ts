/**
 * A SCIM body's safety and bound checks wait for an event-loop turn only when the body may have been
 * big to parse (over SMALL_BODY_BYTES, or of a size the transport does not know); a small one is checked at once.
 * The probe is a getter the checks' walk reads: it tells whether a turn queued before the request had run by then.
 * The memory store answers the authentication without I/O, so no other turn comes between.
 */
import { expect } from 'chai';
import type { Directory } from '../../src/core/model.js';
import { SMALL_BODY_BYTES } from '../../src/scim/handler.js';
import { createDsync, type Dsync } from '../../src/service.js';
import { openStore } from '../support/harness.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';

describe('a SCIM body checked at once when small, after a turn when it may be big', () => {
  let dsync: Dsync;
  let directory: Directory;
  before(async () => {
    dsync = createDsync({ store: await openStore('memory', 15), externalUrl: 'https://app.example.com' });
    directory = await dsync.directories.create({ name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' });
  });
  after(() => dsync.close());

  /** Whether a turn queued just before the request had run when its checks first read the body; and its status. */
  async function turnBeforeChecks(
    bodyBytes: number | undefined,
    n: number,
  ): Promise<{ turned: boolean | undefined; status: number }> {
    let turned = false;
    let seen: boolean | undefined;
    const body = { schemas: [USER], userName: `u${n}@acme.io` };
    Object.defineProperty(body, 'title', { enumerable: true, get: () => ((seen ??= turned), 'Dr') });
    setImmediate(() => (turned = true));
    const res = await dsync.requests.handle({
      method: 'POST',
      resourceType: 'Users',
      directoryId: directory.id,
      apiSecret: directory.scim.secret,
      body,
      ...(bodyBytes !== undefined && { bodyBytes }),
    });
    return { turned: seen, status: res.status };
  }

  it('a body of a known small size: no turn before its checks', async () => {
    expect(await turnBeforeChecks(120, 1)).to.deep.equal({ turned: false, status: 201 });
    expect(await turnBeforeChecks(SMALL_BODY_BYTES, 2)).to.deep.equal({ turned: false, status: 201 });
  });

  it('a bigger body, or one of unknown size (chunked, compressed): a turn first', async () => {
    expect(await turnBeforeChecks(SMALL_BODY_BYTES + 1, 3)).to.deep.equal({ turned: true, status: 201 });
    expect(await turnBeforeChecks(undefined, 4)).to.deep.equal({ turned: true, status: 201 });
  });
});
