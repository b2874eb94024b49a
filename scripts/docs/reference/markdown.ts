/** Markdown pieces shared by the reference generators: the banner, tables and inline code that survive any text. */

/** First line of every generated page: where it comes from and how to rewrite it (the freshness test names it). */
export function generatedBanner(source: string): string {
  return `<!-- Generated from ${source} by \`npm run docs:reference\`; do not edit. -->`;
}

/**
 * Applies `fn` to the text outside code spans (Python-Markdown keeps a code span's content as it is, pipes included).
 */
function outsideCode(text: string, fn: (prose: string) => string): string {
  return text
    .split(/(`+[^`]*?`+)/)
    .map((part, i) => (i % 2 === 1 ? part : fn(part)))
    .join('');
}

/** Prose from a schema or a document: `<key>` shown as written rather than read as an HTML tag. */
export function prose(text: string): string {
  return outsideCode(text, (p) => p.replace(/</g, '&lt;'));
}

/** A table cell: pipes escaped, line breaks folded, so any description stays in its cell. */
export function cell(text: string): string {
  return outsideCode(prose(text), (p) => p.replace(/\|/g, '\\|'))
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** Inline code that holds backticks too (CommonMark: a longer fence, padded when the text starts or ends with one). */
export function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), `|${headers.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}

/** A page: its parts separated by blank lines, ending in one newline. */
export function page(...parts: Array<string | false | undefined>): string {
  return `${parts.filter((p): p is string => typeof p === 'string' && p !== '').join('\n\n')}\n`;
}

/** The anchor MkDocs (Python-Markdown's toc) gives a heading: lower case, punctuation dropped, spaces as dashes. */
export function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}
