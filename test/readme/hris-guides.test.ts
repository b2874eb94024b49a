/**
 * The setup page's steps for each HR system and its guide in docs/guides say the same: as many steps, in the same
 * order, each step of the guide naming every screen, menu and button (the page's bold words) its step on the page
 * names; and the page's fields are the ones the guide's API example sends.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { bamboohrGuide } from '../../src/http/setup/hris-guides/bamboohr.js';
import { hibobGuide } from '../../src/http/setup/hris-guides/hibob.js';
import { personioGuide } from '../../src/http/setup/hris-guides/personio.js';
import type { HrisGuide } from '../../src/http/setup/hris-section.js';

const repoRoot = join(import.meta.dirname, '..', '..');
const GUIDES: Array<[string, HrisGuide]> = [
  ['docs/guides/bamboohr.md', bamboohrGuide],
  ['docs/guides/hibob.md', hibobGuide],
  ['docs/guides/personio.md', personioGuide],
];

/** The numbered steps of the page's first section ("## Create ..."), joined across their wrapped lines. */
function docSteps(markdown: string): string[] {
  const section = /^## Create [^\n]*\n([\s\S]*?)(?=^## )/m.exec(markdown)![1]!;
  const steps: string[] = [];
  for (const line of section.split('\n')) {
    if (/^\d+\. /.test(line)) steps.push(line.replace(/^\d+\. /, ''));
    else if (/^ {3}\S/.test(line) && steps.length > 0) steps[steps.length - 1] += ` ${line.trim()}`;
  }
  return steps;
}

const decode = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

for (const [page, guide] of GUIDES) {
  describe(`${guide.idp}: the setup page's steps and ${page}`, () => {
    const markdown = readFileSync(join(repoRoot, page), 'utf8');
    const steps = guide.steps('https://dsync.example.com/api/v1/dsync/hris/webhooks/d').map((s) => s.toString());

    it('have the same number of steps, each of the guide naming the screens and buttons of the page', () => {
      const docs = docSteps(markdown);
      expect(docs, page).to.have.length(steps.length);
      steps.forEach((step, i) => {
        for (const [, bold] of step.matchAll(/<strong>(.*?)<\/strong>/g))
          expect(docs[i], `${page} step ${i + 1}`).to.contain(`**${decode(bold!)}**`);
      });
    });

    it("names the page's credential fields in its API example", () => {
      for (const f of guide.fields.filter((x) => !x.optional)) expect(markdown, page).to.contain(`"${f.name}"`);
    });
  });
}
