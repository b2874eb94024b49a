/** The setup page's script and style, read once from `assets/setup/` (shipped in the package beside dist/). */
import { readFileSync } from 'node:fs';

const DIR = new URL('../../../assets/setup/', import.meta.url);
const FILES: Record<string, string> = { 'setup.js': 'text/javascript', 'setup.css': 'text/css' };
const cache = new Map<string, { type: string; body: string }>();

/** A known asset, or undefined (only the files above are ever served). */
export function asset(name: string): { type: string; body: string } | undefined {
  const type = FILES[name];
  if (!type) return undefined;
  let file = cache.get(name);
  if (!file)
    cache.set(name, (file = { type: `${type}; charset=utf-8`, body: readFileSync(new URL(name, DIR), 'utf8') }));
  return file;
}
