/**
 * Headless Chromium for the browser tests: Debian's `chromium` (test/setup.sh installs it; CHROMIUM_PATH
 * overrides), driven by playwright-core (its own browser downloads cannot work here). `check` runs axe-core in
 * the page at a desktop and a phone width and writes a screenshot of each (test-results/screenshots, not
 * committed); every page records CSP violations, script errors and dialogs, which a test expects to be none.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { repoRoot } from './cli.js';
import type { Service } from './harness.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = join(repoRoot, 'test-results', 'screenshots');
export const WIDTHS = [1280, 375] as const;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: run bash test/setup.sh (apt package chromium) or set CHROMIUM_PATH`);
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** One Chromium for the enclosing mocha suite: launched before its tests, closed after them. */
export function chromiumForSuite(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());
  return () => browser!;
}

/** What went wrong in a page that no user would see as an error: CSP violations, uncaught errors, dialogs. */
export interface PageTrouble {
  csp: string[];
  errors: string[];
  dialogs: string[];
}

export async function openPage(context: BrowserContext): Promise<{ page: Page; trouble: PageTrouble }> {
  const page = await context.newPage();
  const trouble: PageTrouble = { csp: [], errors: [], dialogs: [] };
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) trouble.csp.push(m.text());
  });
  page.on('pageerror', (e) => trouble.errors.push(e.message));
  page.on('dialog', (d) => {
    trouble.dialogs.push(d.message());
    void d.dismiss();
  });
  return { page, trouble };
}

/**
 * Waits until `expression` is truthy in the page. Evaluated from here through the DevTools protocol at each
 * poll: Playwright's own waitForFunction evaluates a string inside the page, which its CSP (no eval) refuses.
 */
export async function waitUntil(page: Page, expression: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** axe-core's serious and critical violations in the page as it is now. */
async function axeViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, so the page's CSP (no inline script) does not stand in the way.
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))",
  )) as Violation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The page state `name` at each width: no serious or critical accessibility violation, nothing wider than the
 * viewport (no sideways scrolling on a phone), and a full-page screenshot. Leaves the page at the first width.
 */
export async function check(page: Page, name: string): Promise<void> {
  for (const width of [...WIDTHS].reverse()) {
    await page.setViewportSize({ width, height: 900 });
    const violations = await axeViolations(page);
    expect(violations, `${name} at ${width} px: ${JSON.stringify(violations, null, 1)}`).to.deep.equal([]);
    const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
    expect(scrollWidth, `${name} at ${width} px is ${scrollWidth} px wide`).to.be.at.most(width);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

/** A new setup link of the directory, made through the management API. */
export const setupLinkOf = async (svc: Service, d: { id: string }): Promise<string> =>
  (await svc.api('POST', `/api/v1/directory-sync/${d.id}/setup-links`, {})).body.data.url as string;
