import { expect } from 'chai';
import { MemoryStore } from '../../../src/store/memory/users-groups.js';
import { BrowserFlows, type FlowProvider } from '../../../src/providers/oauth/browser-flows.js';
import {
  FlowBrowserMismatchError,
  FlowLinkUsedError,
  InvalidFlowStateError,
} from '../../../src/providers/oauth/errors.js';

/** A provider that records what it completed; its consent page is a plain URL carrying the state. */
function fakeProvider(): FlowProvider & { completed: Array<{ directoryId: string; data?: string }> } {
  const completed: Array<{ directoryId: string; data?: string }> = [];
  return {
    completed,
    consent: async (directoryId, state) => ({
      url: `https://idp.example/consent?d=${directoryId}&state=${state}`,
      data: `verifier-of-${directoryId}`,
    }),
    complete: async (directoryId, query, data) => {
      if (query.error) throw new Error(String(query.error));
      completed.push({ directoryId, ...(data !== undefined && { data }) });
      if (query.say) return String(query.say);
    },
  };
}

const stateOf = (url: string) => new URL(url).searchParams.get('state')!;
const cookieHeader = (c: { name: string; value: string }) => `other=1; ${c.name}=${c.value}`;

describe('browser OAuth flows (providers/oauth)', () => {
  it('start, then finish in the same browser: the directory, the return URL, the provider data; once', async () => {
    const flows = new BrowserFlows({ store: new MemoryStore(), externalUrl: 'http://localhost:5225' });
    const idp = fakeProvider();
    flows.register('idp', idp);
    const started = await flows.start({ provider: 'idp', directoryId: 'd1', returnTo: 'https://app.example/back' });
    expect(started.cookie).to.include({ secure: false, maxAgeMs: 600_000 });
    expect(started.cookie.name).to.match(/^dsync-oauth-[\w-]{12}$/);
    const state = stateOf(started.authorizationUrl);
    expect(await flows.finish('idp', { state, code: 'c' }, cookieHeader(started.cookie))).to.deep.equal({
      directoryId: 'd1',
      returnTo: 'https://app.example/back',
    });
    expect(idp.completed).to.deep.equal([{ directoryId: 'd1', data: 'verifier-of-d1' }]);
    let err: unknown;
    await flows.finish('idp', { state, code: 'c' }, cookieHeader(started.cookie)).catch((e) => (err = e));
    expect(err).to.be.instanceOf(InvalidFlowStateError);
    // What the provider says on success goes to the page.
    const again = await flows.start({ provider: 'idp', directoryId: 'd1' });
    const said = await flows.finish(
      'idp',
      { state: stateOf(again.authorizationUrl), say: 'Connected to tenant T' },
      cookieHeader(again.cookie),
    );
    expect(said).to.deep.equal({ directoryId: 'd1', done: 'Connected to tenant T' });
  });

  it('over https the cookie is __Host- and Secure', async () => {
    const flows = new BrowserFlows({ store: new MemoryStore(), externalUrl: 'https://dsync.example.com' });
    flows.register('idp', fakeProvider());
    const { cookie } = await flows.start({ provider: 'idp', directoryId: 'd1' });
    expect(cookie.name).to.match(/^__Host-dsync-oauth-/);
    expect(cookie.secure).to.equal(true);
  });

  it('refuses another browser, another provider, an expired state; a provider failure comes back with the flow', async () => {
    const flows = new BrowserFlows({ store: new MemoryStore(), externalUrl: 'http://localhost', stateTtlMs: 50 });
    flows.register('idp', fakeProvider());
    flows.register('other', fakeProvider());
    const refused = async (p: Promise<unknown>, type: new (...a: never[]) => Error) => {
      const e = await p.then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).to.be.instanceOf(type);
    };
    const a = await flows.start({ provider: 'idp', directoryId: 'd1' });
    await refused(flows.finish('idp', { state: stateOf(a.authorizationUrl) }, undefined), FlowBrowserMismatchError);
    const b = await flows.start({ provider: 'idp', directoryId: 'd1' });
    await refused(
      flows.finish('other', { state: stateOf(b.authorizationUrl) }, cookieHeader(b.cookie)),
      InvalidFlowStateError,
    );
    const c = await flows.start({ provider: 'idp', directoryId: 'd1' });
    await new Promise((r) => setTimeout(r, 80));
    await refused(
      flows.finish('idp', { state: stateOf(c.authorizationUrl) }, cookieHeader(c.cookie)),
      InvalidFlowStateError,
    );
    const d = await flows.start({ provider: 'idp', directoryId: 'd2', returnTo: 'https://app.example/x' });
    const done = await flows.finish(
      'idp',
      { state: stateOf(d.authorizationUrl), error: 'access_denied' },
      cookieHeader(d.cookie),
    );
    expect(done).to.deep.include({ directoryId: 'd2', returnTo: 'https://app.example/x' });
    expect((done.error as Error).message).to.equal('access_denied');
  });

  it('a start link is opened by one browser only, however many try at once', async () => {
    const flows = new BrowserFlows({ store: new MemoryStore(), externalUrl: 'http://localhost:5225' });
    flows.register('idp', fakeProvider());
    const { url } = await flows.link({ provider: 'idp', directoryId: 'd1' });
    const token = url.split('/').pop()!;
    expect(url).to.equal(`http://localhost:5225/api/v1/dsync/oauth/start/${token}`);
    const opened = await Promise.allSettled(Array.from({ length: 5 }, () => flows.open(token)));
    expect(opened.filter((o) => o.status === 'fulfilled')).to.have.length(1);
    for (const o of opened.filter((x) => x.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).to.be.instanceOf(FlowLinkUsedError);
  });

  it('a flow of two steps at the provider: the first callback goes on to the next page, with a new state and cookie for the same browser', async () => {
    const flows = new BrowserFlows({ store: new MemoryStore(), externalUrl: 'http://localhost:5225' });
    const seen: Array<{ step?: string; data?: string }> = [];
    flows.register('idp', {
      consent: async (_d, state, step) => ({
        url: `https://idp.example/${step ?? 'sign-in'}?state=${state}`,
        data: step ?? 'first',
      }),
      complete: async (_d, _q, data) => {
        seen.push({ data });
        return data === 'first' ? { next: 'second' } : 'done';
      },
    });
    const started = await flows.start({ provider: 'idp', directoryId: 'd1', returnTo: 'https://app.example/back' });
    const first = await flows.finish('idp', { state: stateOf(started.authorizationUrl) }, cookieHeader(started.cookie));
    expect(first).to.deep.include({ directoryId: 'd1', returnTo: 'https://app.example/back' });
    const next = first.next!;
    expect(next.authorizationUrl).to.match(/^https:\/\/idp\.example\/second\?state=[\w-]{43}$/);
    expect(next.cookie.name).not.to.equal(started.cookie.name);
    expect(next.cookie.value).not.to.equal(started.cookie.value);
    // The first step's cookie is no key to the second step.
    const withOld = await flows
      .finish(
        'idp',
        { state: stateOf(next.authorizationUrl) },
        cookieHeader({ name: next.cookie.name, value: started.cookie.value }),
      )
      .catch((e: unknown) => e);
    expect(withOld).to.be.instanceOf(FlowBrowserMismatchError);
    const again = await flows.start({ provider: 'idp', directoryId: 'd1' });
    const step2 = (await flows.finish('idp', { state: stateOf(again.authorizationUrl) }, cookieHeader(again.cookie)))
      .next!;
    expect(
      await flows.finish('idp', { state: stateOf(step2.authorizationUrl) }, cookieHeader(step2.cookie)),
    ).to.deep.equal({ directoryId: 'd1', done: 'done' });
    expect(seen.map((x) => x.data)).to.deep.equal(['first', 'first', 'second']);
  });
});
