/**
 * docs/reference/errors.md from the error-code table of src/core/error-codes.ts: per section, each code with its
 * HTTP status, what it means and what to do. An alert named in the text links to its runbook.
 */
import type { ErrorCodeDoc } from '../../../src/core/error-code-doc.js';
import { ERROR_CODE_SECTIONS } from '../../../src/core/error-codes.js';
import { code, generatedBanner, page, table } from './markdown.js';

type Section = { title: string; intro: string; codes: Readonly<Record<string, ErrorCodeDoc>> };

const withRunbooks = (text: string): string => text.replace(/\b(Dsync[A-Z]\w+)\b/g, '[$1](../operating/alerts/$1.md)');

function section({ title, intro, codes }: Section): string[] {
  const rows = Object.entries(codes).map(([name, doc]) => [
    code(name),
    doc.status === undefined ? '' : String(doc.status),
    withRunbooks(doc.meaning),
    withRunbooks(doc.action),
  ]);
  return [`## ${title}`, intro, table(['Code', 'HTTP status', 'Meaning', 'What to do'], rows)].filter(
    (part) => part !== '',
  );
}

export function errorsPage(sections: readonly Section[] = ERROR_CODE_SECTIONS): string {
  const count = sections.reduce((n, s) => n + Object.keys(s.codes).length, 0);
  return page(
    generatedBanner('the error-code table of `src/core/error-codes.ts`'),
    '# Error codes',
    `Every error dsync raises carries a stable \`code\` (${count} codes below): branch on it, never on the message, which may change. You meet the codes in the logs (\`err.code\`), in a sync's status and runs (\`error.code\`), and in the \`error\` parameter an OAuth callback sends back to its \`return_to\` page. The HTTP status is the one a request failing with the code is answered with; the management API's body gives the status and the message, a SCIM body the status and the \`scimType\`.`,
    ...sections.flatMap(section),
  );
}
