/**
 * What a bad merge or a pasted patch leaves in Markdown, which renders as a garbled page and which neither the
 * strict site build nor a link check notices: unified-diff hunk headers (`@@ -12,7 +12,9 @@`) and file headers
 * (`--- a/…`, `+++ b/…`), merge-conflict markers, and runs of removed/added lines (`-` or `+` where a list item,
 * `- text`, or a rule, `---`, cannot be). Fenced code blocks may show a diff on purpose; conflict markers are
 * found inside them too.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Leftover {
  line: number;
  what: string;
  text: string;
}

const HUNK = /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/;
const FILE_HEADER = /^(--- a\/|\+\+\+ b\/|diff --git )/;
const CONFLICT_START = /^<{7}( |$)/;
const CONFLICT_BASE = /^\|{7}( |$)/;
const CONFLICT_END = /^>{7}( |$)/;
const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * A line as a diff writes it and Markdown does not: `+…`, or `-` followed by something other than the one space of a
 * list item (`-- item`, `-  continued`, `-` alone), except a rule (`---`, `- - -`).
 */
function diffLike(line: string): boolean {
  if (/^(-{3,}|(- ){2,}-)\s*$/.test(line)) return false;
  return /^\+/.test(line) || /^-(-|\s{2,}|\t|$)/.test(line);
}

/** What is left of a diff or a merge conflict in `markdown`, with its 1-based line numbers. */
export function markdownLeftovers(markdown: string): Leftover[] {
  const found: Leftover[] = [];
  const lines = markdown.split('\n');
  let fence: string | null = null;
  let conflict = false;
  let run: number[] = [];
  const endRun = () => {
    if (run.length >= 2)
      for (const i of run) found.push({ line: i + 1, what: 'a removed or added line of a diff', text: lines[i]! });
    run = [];
  };
  lines.forEach((line, i) => {
    const at = (what: string) => found.push({ line: i + 1, what, text: line });
    if (CONFLICT_START.test(line)) {
      conflict = true;
      at('a merge-conflict marker');
    } else if (CONFLICT_END.test(line)) {
      conflict = false;
      at('a merge-conflict marker');
    } else if (CONFLICT_BASE.test(line) || (conflict && /^={7}$/.test(line))) {
      at('a merge-conflict marker');
    }
    const opens = FENCE.exec(line)?.[1];
    if (fence === null && opens) {
      fence = opens[0]!;
      endRun();
      return;
    }
    if (fence !== null) {
      if (opens?.[0] === fence) fence = null;
      return;
    }
    if (HUNK.test(line)) at('a diff hunk header');
    else if (FILE_HEADER.test(line)) at('a diff file header');
    if (diffLike(line) && !FILE_HEADER.test(line)) run.push(i);
    else endRun();
  });
  endRun();
  return found.sort((a, b) => a.line - b.line);
}

const SKIP = new Set(['node_modules', '.git', 'dist', 'site', '.venv', 'coverage']);

/** Every Markdown file of the repository at `root` (not dependencies, build output or a built site). */
export function repositoryMarkdown(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : repositoryMarkdown(root, join(dir, entry.name));
    return entry.name.endsWith('.md') ? [join(dir, entry.name)] : [];
  });
}
