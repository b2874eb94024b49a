/**
 * The setup page's routes (no Api-Key: the link is the credential), mounted at `/setup` by the app or anywhere
 * by an embedding application:
 *   GET  /<link>                 the page (HTML); 404/410 page when the link does not open
 *   GET  /<link>/status          what the page shows live (JSON; its script polls it)
 *   POST /<link>/<action>        an action of the directory type's section (sections-by-type.ts) or of the Attributes
 *                                section (attributes-section.ts, every type), CSRF-checked
 *   GET  /static/setup.js|.css   the page's script and style (no inline script anywhere)
 * A link grants its one directory and these actions only. Every response carries the page's security headers.
 * A link that does not open is a failed authentication (realm `setup`): past the limits, the client is refused
 * before any link is looked up. The page's own limits key on the link's id, whatever the spelling of its URL.
 */
import { pino } from 'pino';
import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { MAX_CUSTOM_ATTRIBUTES } from '../../core/custom-attributes.js';
import { DsyncError, ValidationError } from '../../core/errors.js';
import type { Logger } from '../../logger.js';
import { attempt, AuthFailures, SETUP_REALM } from '../../ratelimit/auth-failures.js';
import { createPageLimits, type PageLimitKind, type PageLimits } from '../../ratelimit/page-limits.js';
import type { Dsync } from '../../service.js';
import { html } from '../html.js';
import type { RouteTemplate } from '../middleware/request-identity.js';
import { admit } from '../middleware/request-metrics.js';
import { setFlowCookie } from '../flow-cookie.js';
import { asset } from './assets.js';
import { ATTRIBUTE_ACTIONS, attributesView, isAttributesAction } from './attributes-section.js';
import { statusText } from './fragments.js';
import { liveStatus } from './live-status.js';
import { returnNotice, syncStateText } from './pull-section.js';
import { linkGonePage, messagePage, setupPage } from './page.js';
import { csrfFailure, csrfToken, pageHeaders, type FramingOptions } from './page-security.js';
import { SETUP_SECTIONS } from './sections-by-type.js';
import type { ActionOutcome, PageChanges, SetupView } from './view-types.js';

export interface SetupRoutesOptions extends FramingOptions {
  /** Default: silent. */
  logger?: Logger;
  /** Default: counters in this process (the app passes ones on the store's Redis). */
  limits?: PageLimits;
  /**
   * Where links that do not open are counted; default: the default limits, in this process (the app passes its own).
   */
  authFailures?: AuthFailures;
}

/** The page's paths under `mount` (GET and HEAD but for the actions), for the request identities and route labels. */
export function setupTemplates(mount: string): RouteTemplate[] {
  const page = (path: string, label = path) => ({
    path: `${mount}${path}`,
    methods: ['GET', 'HEAD'],
    label: `${mount}${label}`,
  });
  // An action is one or two segments (`scim-tokens`, `scim-tokens/revoke`): one label for both.
  const action = (path: string) => ({ path: `${mount}${path}`, methods: ['POST'], label: `${mount}/:link/:action` });
  return [
    { ...page('/static/:file'), open: true },
    page('/:link'),
    page('/:link/status'),
    action('/:link/:action'),
    action('/:link/:action/:name'),
  ];
}

/** From the response's URL back to the mount point: `./` for `/<link>`, `../` for `/<link>/status`. */
const rootOf = (req: Request): string => {
  const depth = req.path.split('/').filter(Boolean).length;
  return depth <= 1 ? './' : '../'.repeat(depth - 1);
};

const wantsJson = (req: Request): boolean => req.accepts(['html', 'json']) === 'json';

export function setupRoutes(dsync: Dsync, options: SetupRoutesOptions = {}): Router {
  const logger = options.logger ?? pino({ level: 'silent' });
  const limits = options.limits ?? createPageLimits();
  const failures = options.authFailures ?? new AuthFailures({ logger });
  const r = Router();
  const headers = (res: Response, formTargets: string[] = []) =>
    pageHeaders(res, { formTargets, frameAncestors: options.frameAncestors ?? [] });
  const log = (res: Response): Logger => (res.locals.log as Logger | undefined) ?? logger;

  const refuse = (req: Request, res: Response, status: number, title: string, text: string) => {
    if (wantsJson(req)) return void res.status(status).json({ data: null, error: { message: text, code: status } });
    res
      .status(status)
      .type('html')
      .send(messagePage(rootOf(req), title, html`<p>${text}</p>`));
  };
  const limited = (req: Request, res: Response, seconds: number) => {
    res.setHeader('Retry-After', String(seconds));
    refuse(req, res, 429, 'Too many requests', `Too many requests from here: wait ${seconds} s and try again.`);
  };

  /** The link's directory, or the answer that it does not open (already sent). */
  async function open(req: Request, res: Response, kind: PageLimitKind) {
    headers(res);
    const link = String(req.params.link);
    const resolved = await dsync.setupLinks.resolve(link);
    if (resolved.status !== 'valid') {
      await failures.failed(attempt(req, SETUP_REALM));
      const status = resolved.status === 'unknown' ? 404 : 410;
      if (wantsJson(req))
        return void res
          .status(status)
          .json({ data: null, error: { message: 'This setup link is no longer valid', code: status, gone: true } });
      return void res
        .status(status)
        .type('html')
        .send(linkGonePage(rootOf(req), resolved.status));
    }
    admit(res);
    const wait = await limits.take(kind, resolved.link.id);
    if (wait !== undefined) return void limited(req, res, wait);
    const section = SETUP_SECTIONS[resolved.directory.type];
    headers(res, section.formTargets?.(dsync));
    return { secret: link, link: resolved.link, directory: resolved.directory, section };
  }

  async function view(
    req: Request,
    opened: NonNullable<Awaited<ReturnType<typeof open>>>,
    changes: PageChanges = {},
  ): Promise<SetupView> {
    const { directory, secret } = opened;
    const { attributes: edit, ...extra } = changes;
    const [live, attributes] = await Promise.all([
      liveStatus(dsync, directory),
      attributesView(dsync, directory, edit),
    ]);
    return {
      root: rootOf(req),
      link: secret,
      csrf: csrfToken(secret),
      directory: {
        id: directory.id,
        name: directory.name,
        type: directory.type,
        ...(directory.managed_by && { managed_by: directory.managed_by }),
      },
      scimUrl: directory.scim.endpoint,
      expiresAt: opened.link.expires_at,
      live,
      ...(attributes && { attributes }),
      ...extra,
    };
  }

  r.get('/static/:file', (req, res) => {
    const file = asset(String(req.params.file));
    if (!file) return void res.status(404).type('text/plain').send('Not found');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.type(file.type).send(file.body);
  });

  // Past here the link is a credential: a client (or the realm) over the failure limit is refused before any lookup.
  r.use(
    failures.gate(
      () => SETUP_REALM,
      (res, message) => {
        headers(res);
        refuse(res.req, res, 429, 'Too many requests', `${message}.`);
      },
    ),
  );

  r.get('/:link', async (req, res) => {
    const opened = await open(req, res, 'view');
    if (!opened) return;
    const notice = opened.section.pull ? returnNotice(req, opened.section) : undefined;
    res.type('html').send(setupPage(await view(req, opened, notice ? { notice } : {}), opened.section));
  });

  r.get('/:link/status', async (req, res) => {
    const opened = await open(req, res, 'view');
    if (!opened) return;
    const live = await liveStatus(dsync, opened.directory);
    // The texts as the page words them, so its script does not keep a second copy of them.
    const texts = {
      state_text: statusText(live, opened.section.idp),
      ...(live.pull && { sync_text: syncStateText(live.pull.status.state) }),
    };
    res.json({ data: { ...live, ...texts }, error: null });
  });

  const actionName = (req: Request): string => (req.params as { action: string[] }).action.join('/');
  const smallForm = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 20 });
  // A source per attribute the application asked for (at most 100, each up to 512 characters, escaped).
  const attributesForm = express.urlencoded({
    extended: false,
    limit: '200kb',
    parameterLimit: MAX_CUSTOM_ATTRIBUTES + 2,
  });
  const form: express.RequestHandler = (req, res, next) =>
    (isAttributesAction(actionName(req)) ? attributesForm : smallForm)(req, res, next);

  r.post('/:link/*action', form, async (req, res) => {
    const opened = await open(req, res, 'action');
    if (!opened) return;
    const name = actionName(req);
    const action = opened.section.actions[name] ?? ATTRIBUTE_ACTIONS[name];
    if (!action) return refuse(req, res, 404, 'Not found', 'This page has no such action.');
    const fields = (req.body ?? {}) as Record<string, unknown>;
    const failure = csrfFailure(req, opened.secret, req.get('x-csrf-token') ?? fields.csrf);
    if (failure) {
      log(res).warn(
        { directoryId: opened.directory.id, action: name, reason: failure },
        'setup page action refused (CSRF)',
      );
      return refuse(req, res, 403, 'Refused', `Refused: ${failure}. Use the buttons of the setup page.`);
    }
    let outcome: ActionOutcome;
    try {
      outcome = await action({
        dsync,
        directory: opened.directory,
        fields,
        pageUrl: `${dsync.setupLinks.baseUrl}/${opened.secret}`,
        linkId: opened.link.id,
      });
    } catch (err) {
      if (!(err instanceof DsyncError) || err.status >= 500) throw err;
      // The field lets the page's script show the error beside its input.
      const field = err instanceof ValidationError && err.field !== undefined ? { field: err.field } : {};
      if (wantsJson(req))
        return void res
          .status(err.status)
          .json({ data: null, error: { message: err.message, code: err.status, ...field } });
      return void res
        .status(err.status)
        .type('html')
        .send(setupPage(await view(req, opened, { notice: { kind: 'error', text: err.message } }), opened.section));
    }
    log(res).info({ directoryId: opened.directory.id, action: name }, 'setup page action');
    if (outcome.cookie) setFlowCookie(res, outcome.cookie);
    if (wantsJson(req))
      return void res.json({
        data: outcome.data,
        error: null,
        ...(outcome.redirect && { redirect: outcome.redirect }),
      });
    if (outcome.redirect) return res.redirect(303, outcome.redirect);
    res.type('html').send(setupPage(await view(req, opened, outcome.page ?? {}), opened.section));
  });

  r.all(['/:link', '/:link/status'], (req, res) => {
    headers(res);
    res.setHeader('Allow', 'GET, HEAD');
    refuse(req, res, 405, 'Method not allowed', 'Use the setup page itself.');
  });
  r.use((req, res) => {
    headers(res);
    refuse(req, res, 404, 'Not found', 'There is nothing here.');
  });
  r.use(((err, req, res, _next) => {
    headers(res);
    // The form parser's refusals (too big, too many fields, an unknown charset or encoding, malformed) are the
    // client's: a 400 whatever status the parser picked, and nothing to log.
    const e = err as { type?: string; status?: number };
    if (typeof e.status === 'number' && e.status >= 400 && e.status < 500)
      return refuse(req, res, 400, 'Bad request', 'The request could not be read.');
    if (err instanceof DsyncError && err.status === 503) {
      res.setHeader('Retry-After', String(err.retryAfter ?? 1));
      return refuse(req, res, 503, 'Try again shortly', 'The service is briefly unavailable: try again in a moment.');
    }
    log(res).error({ err }, 'setup page request failed');
    refuse(req, res, 500, 'Something went wrong', 'Something went wrong on our side: try again in a moment.');
  }) as ErrorRequestHandler);
  return r;
}
