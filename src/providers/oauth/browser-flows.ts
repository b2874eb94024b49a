/**
 * Browser OAuth flows of the pull providers (Google Workspace, and any other that registers): an admin's browser
 * goes to the provider's consent page and comes back to our callback with a code. The flow's `state` is a
 * random nonce recorded in the store and consumed atomically at the callback (single use: a replayed callback
 * finds nothing), short-lived, and bound to the browser that started it by an HttpOnly cookie whose hash the
 * record holds: a state seen in a forwarded link, a browser history or a proxy log is useless in another browser.
 *
 * Two ways in: `start` (a page of ours, e.g. the setup page, is already in the admin's browser: set the cookie
 * it returns and redirect to the authorization URL), and `link` (an API caller asks for a URL to hand to the
 * admin; the first browser that opens it gets the cookie and goes on to the provider, and the link is spent).
 * `finish` is the callback: the directory the flow was for, or a coded error. A provider whose flow has two
 * steps at the provider (Entra: the admin signs in, then consents) answers the first callback with the next
 * step: a new state, bound to the same browser by a new cookie, and the browser goes on to the next page.
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { OneTimeStore } from '../../core/store-port.js';
import { FlowBrowserMismatchError, FlowLinkUsedError, InvalidFlowStateError } from './errors.js';

export interface FlowTarget {
  /** The provider's name, as registered (`google`, `microsoft`). */
  provider: string;
  directoryId: string;
  /** Where the callback sends the browser afterwards (with `status` and `directory_id`); unset = a page of ours. */
  returnTo?: string;
  /** The setup link whose page started the flow: once it is revoked or expired, the flow's callback stores nothing. */
  setupLinkId?: string;
}

export interface FlowProvider {
  /**
   * The provider's consent page for this directory carrying `state`, after checking the directory can start a
   * flow (coded error otherwise). `data` is kept with the flow and handed to `complete` (a PKCE verifier, say).
   * `step` is what `complete` carried on to a next step (unset for the first).
   */
  consent(directoryId: string, state: string, step?: string): Promise<{ url: string; data?: string }>;
  /**
   * The callback's query (code, error, tenant…) for the flow's directory: check, exchange, store; a coded error
   * otherwise. May resolve with what the success page should say (a generic sentence otherwise), or with
   * `{next}`: the flow goes on in the same browser to the page `consent(…, next)` names.
   */
  complete(
    directoryId: string,
    query: Record<string, unknown>,
    data?: string,
  ): Promise<string | void | { next: string }>;
}

/** A cookie to set on the browser: always HttpOnly, SameSite=Lax (sent on the provider's redirect back), Path=/. */
export interface FlowCookie {
  name: string;
  value: string;
  maxAgeMs: number;
  /** `Secure`, with the `__Host-` name prefix, when the service is reached over https. */
  secure: boolean;
}

export interface StartedFlow {
  /** Send the browser here (the provider's consent page). */
  authorizationUrl: string;
  /** Set this on the browser first: the callback must come back with it. */
  cookie: FlowCookie;
}

export interface FinishedFlow {
  directoryId: string;
  returnTo?: string;
  /** What the provider said on success, for the page. */
  done?: string;
  /** Set when the provider's step failed (refused code, wrong workspace…): the flow is spent all the same. */
  error?: unknown;
  /** The flow's next step at the provider: set the cookie, send the browser to the URL. */
  next?: StartedFlow;
}

export interface BrowserFlowsOptions {
  store: OneTimeStore;
  /** The service's external URL: start links are built on it; https makes the cookie `__Host-` and Secure. */
  externalUrl: string;
  /** How long a started flow may take (sign-in and consent); default 10 minutes. */
  stateTtlMs?: number;
  /** How long a start link stays valid before it is opened; default 15 minutes. */
  linkTtlMs?: number;
  /** Whether a directory's setup link still works (neither revoked nor expired); flows started from one need it. */
  setupLinkWorks?: (directoryId: string, linkId: string) => Promise<boolean>;
}

/** Where start links are opened (GET, no Api-Key), under the external URL. */
export const START_PATH = '/api/v1/dsync/oauth/start';

const record = z.object({
  p: z.string(),
  d: z.string(),
  r: z.string().optional(),
  /** SHA-256 of the browser cookie's value (state records only). */
  b: z.string().optional(),
  x: z.string().optional(),
  /** The setup link that started the flow. */
  l: z.string().optional(),
});

const nonce = () => randomBytes(32).toString('base64url');
const hash = (text: string) => createHash('sha256').update(text).digest('base64url');
/** A state or token as a client may send it back: base64url of 32 bytes, nothing else is looked up. */
const NONCE = /^[A-Za-z0-9_-]{43}$/;

export class BrowserFlows {
  private readonly providers = new Map<string, FlowProvider>();
  private readonly stateTtlMs: number;
  private readonly linkTtlMs: number;
  private readonly secure: boolean;

  private readonly externalUrl: string;

  constructor(private readonly o: BrowserFlowsOptions) {
    this.stateTtlMs = o.stateTtlMs ?? 10 * 60_000;
    this.linkTtlMs = o.linkTtlMs ?? 15 * 60_000;
    this.externalUrl = o.externalUrl.replace(/\/+$/, '');
    this.secure = this.externalUrl.startsWith('https:');
  }

  register(name: string, provider: FlowProvider): void {
    this.providers.set(name, provider);
  }

  /** Starts a flow in the browser the caller answers: set `cookie`, then redirect to `authorizationUrl`. */
  async start(target: FlowTarget): Promise<StartedFlow> {
    return this.begin(target);
  }

  /** A step of a flow: a new state and cookie, and the provider's page for it. */
  private async begin(target: FlowTarget, step?: string): Promise<StartedFlow> {
    const state = nonce();
    const secret = nonce();
    const consent = await this.provider(target.provider).consent(target.directoryId, state, step);
    const saved = {
      p: target.provider,
      d: target.directoryId,
      r: target.returnTo,
      b: hash(secret),
      x: consent.data,
      l: target.setupLinkId,
    };
    await this.o.store.putOnce(`oauth-state:${hash(state)}`, JSON.stringify(saved), this.stateTtlMs);
    return {
      authorizationUrl: consent.url,
      cookie: { name: this.cookieName(state), value: secret, maxAgeMs: this.stateTtlMs, secure: this.secure },
    };
  }

  /** A link that starts the flow in the first browser that opens it (for callers that are not the browser). */
  async link(target: FlowTarget): Promise<{ url: string; expiresAt: string }> {
    this.provider(target.provider);
    const token = nonce();
    await this.o.store.putOnce(
      `oauth-link:${hash(token)}`,
      JSON.stringify({ p: target.provider, d: target.directoryId, r: target.returnTo }),
      this.linkTtlMs,
    );
    return {
      url: `${this.externalUrl}${START_PATH}/${token}`,
      expiresAt: new Date(Date.now() + this.linkTtlMs).toISOString(),
    };
  }

  /** Opens a start link (once): the flow starts in this browser. */
  async open(token: string): Promise<StartedFlow> {
    const saved = NONCE.test(token) ? await this.o.store.takeOnce(`oauth-link:${hash(token)}`) : null;
    if (saved === null) throw new FlowLinkUsedError();
    const r = record.parse(JSON.parse(saved));
    return this.start({ provider: r.p, directoryId: r.d, ...(r.r !== undefined && { returnTo: r.r }) });
  }

  /**
   * The callback of `provider`: consumes the state (whatever happens next, it cannot be used again), checks the
   * browser's cookie, then lets the provider complete. A bad state or browser throws; a failure of the provider's
   * step is returned with the flow's directory and return URL, so the caller can send the browser back there.
   */
  async finish(
    provider: string,
    query: Record<string, unknown>,
    cookieHeader: string | undefined,
  ): Promise<FinishedFlow> {
    const state = query.state;
    if (typeof state !== 'string' || !NONCE.test(state)) throw new InvalidFlowStateError('missing or malformed');
    const saved = await this.o.store.takeOnce(`oauth-state:${hash(state)}`);
    if (saved === null) throw new InvalidFlowStateError('unknown, expired or already used');
    const r = record.parse(JSON.parse(saved));
    if (r.p !== provider) throw new InvalidFlowStateError(`started for ${r.p}, not ${provider}`);
    const secret = cookieValue(cookieHeader, this.cookieName(state));
    if (secret === undefined || r.b === undefined || hash(secret) !== r.b) throw new FlowBrowserMismatchError();
    // A flow started from a setup page dies with its link: revoking the link stops a Connect it started.
    if (r.l !== undefined && !(await this.setupLinkWorks(r.d, r.l)))
      throw new InvalidFlowStateError('started from a setup link that was revoked or has expired');
    const done = { directoryId: r.d, ...(r.r !== undefined && { returnTo: r.r }) };
    try {
      const said = await this.provider(provider).complete(r.d, query, r.x);
      if (typeof said === 'object')
        return {
          ...done,
          next: await this.begin({ provider, ...done, ...(r.l !== undefined && { setupLinkId: r.l }) }, said.next),
        };
      return { ...done, ...(typeof said === 'string' && { done: said }) };
    } catch (error) {
      return { ...done, error };
    }
  }

  /** The cookie of the flow of `state`, expired: set it on the callback's answer. */
  spent(state: unknown): FlowCookie | undefined {
    return typeof state === 'string' && NONCE.test(state)
      ? { name: this.cookieName(state), value: '', maxAgeMs: 0, secure: this.secure }
      : undefined;
  }

  /** One cookie per flow (two flows in two tabs do not overwrite each other's), named after its state. */
  private cookieName(state: string): string {
    return `${this.secure ? '__Host-' : ''}dsync-oauth-${hash(state).slice(0, 12)}`;
  }

  private async setupLinkWorks(directoryId: string, linkId: string): Promise<boolean> {
    if (!this.o.setupLinkWorks) throw new Error('a flow started from a setup link needs setupLinkWorks');
    return this.o.setupLinkWorks(directoryId, linkId);
  }

  private provider(name: string): FlowProvider {
    const p = this.providers.get(name);
    if (!p) throw new Error(`no OAuth flow provider ${name} is registered`);
    return p;
  }
}

/** One cookie's value from a Cookie header (ours are base64url: no quoting or decoding to do). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
