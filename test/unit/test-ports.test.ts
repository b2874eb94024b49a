import { expect } from 'chai';
import { freePort, occupy, portIsFree } from '../support/ports.js';

describe('test support: ports for the programs tests start', () => {
  it('a port something holds is not free, and occupying it again rejects (no uncaught error)', async () => {
    const port = await freePort();
    const holder = await occupy(port);
    try {
      expect(await portIsFree(port)).to.equal(false);
      const err = await occupy(port).then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e,
      );
      expect(err?.code).to.equal('EADDRINUSE');
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    expect(await portIsFree(port), 'free again once let go').to.equal(true);
  });
});
