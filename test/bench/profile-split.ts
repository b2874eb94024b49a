/**
 * Where a dsync write's CPU time goes, from the `--cpu-prof` profiles scim-ceiling.bench.ts writes with
 * BENCH_PROFILE=<dir>: the samples of the main thread inside each phase's measured windows (windows.json; the
 * bench and V8 both read the system's monotonic clock), each charged to the innermost frame of a known part,
 * then divided by the phase's requests. Prints CPU µs per request per part, one table per profiled server.
 *
 *   npx tsx test/bench/profile-split.ts <dir>             # <dir>/<server>/CPU.*.<pid>.0.*.cpuprofile
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface Frame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Window {
  target: string;
  phase: string;
  round: number;
  startUs: number;
  endUs: number;
  requests: number;
}

const PARTS = ['HTTP', 'validation', 'store', 'delivery', 'metrics & logs', 'GC', 'other'] as const;
type Part = (typeof PARTS)[number];

/**
 * The part a frame belongs to by its source (src/ under tsx, dist/ built), or undefined (node internals, natives: look
 * at its caller).
 */
const BY_URL: Array<[RegExp, Part]> = [
  [/\/(?:src|dist)\/delivery\/|\/node_modules\/undici\//, 'delivery'],
  [
    /\/(?:src|dist)\/store\/|\/node_modules\/(ioredis|@ioredis|redis-parser|redis-errors|cluster-key-slot|denque|standard-as-callback)\//,
    'store',
  ],
  [
    /\/(?:src|dist)\/(?:metrics|logger)\.[jt]s|\/node_modules\/(prom-client|pino|pino-std-serializers|sonic-boom|thread-stream|tdigest|bintrees)\//,
    'metrics & logs',
  ],
  [/\/(?:src|dist)\/(scim|core)\/|\/node_modules\/zod\//, 'validation'],
  [
    /\/(?:src|dist)\/(http|ratelimit)\/|\/(?:src|dist)\/service\.[jt]s|\/node_modules\/(express|body-parser|router|raw-body|finalhandler|on-finished|type-is|content-type|iconv-lite|qs|send|path-to-regexp|depd|http-errors|statuses|mime-types|media-typer|negotiator|accepts|parseurl|encodeurl|vary|cookie|fresh|range-parser|rate-limiter-flexible)\/|^node:_http/,
    'HTTP',
  ],
];

function partOf(nodeId: number, byId: Map<number, ProfileNode>, parent: Map<number, number>): Part | 'idle' {
  const leaf = byId.get(nodeId)!.callFrame.functionName;
  if (leaf === '(idle)') return 'idle';
  if (leaf === '(garbage collector)') return 'GC';
  for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
    const { url } = byId.get(id)!.callFrame;
    for (const [re, part] of BY_URL) if (re.test(url)) return part;
  }
  return 'other';
}

/** CPU µs per request per part, for each phase of `target` (its samples inside the phase's windows). */
function split(profile: Profile, windows: Window[]): Map<string, { requests: number; us: Record<Part, number> }> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, { requests: number; us: Record<Part, number> }>();
  for (const w of windows) {
    const entry = out.get(w.phase) ?? {
      requests: 0,
      us: Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>,
    };
    entry.requests += w.requests;
    out.set(w.phase, entry);
  }
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i]!;
    t += dt;
    const w = windows.find((x) => t >= x.startUs && t <= x.endUs);
    if (!w) continue;
    const part = partOf(profile.samples[i]!, byId, parent);
    if (part === 'idle') continue;
    // A sample stands for the time since the previous one.
    out.get(w.phase)!.us[part] += dt;
  }
  return out;
}

function main(): void {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: profile-split.ts <dir with windows.json and <target>.cpuprofile files>');
  const windows = JSON.parse(readFileSync(join(dir, 'windows.json'), 'utf8')) as Window[];
  for (const target of new Set(windows.map((w) => w.target))) {
    // The main thread's profile (thread id 0); tsx's module loader thread writes one of its own.
    const file = readdirSync(join(dir, target)).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f));
    if (!file) throw new Error(`no main-thread profile in ${join(dir, target)}`);
    const mine = windows.filter((w) => w.target === target);
    const result = split(JSON.parse(readFileSync(join(dir, target, file), 'utf8')) as Profile, mine);
    console.log(`\n${target}: CPU µs per request (share of the busy time)\n`);
    console.log(`| phase | total | ${PARTS.join(' | ')} |\n|---|---:|${PARTS.map(() => '---:').join('|')}|`);
    for (const [phase, { requests, us }] of result) {
      const total = PARTS.reduce((a, p) => a + us[p], 0);
      const cell = (p: Part) => `${Math.round(us[p] / requests)} (${Math.round((us[p] / total) * 100)}%)`;
      console.log(`| ${phase} | ${Math.round(total / requests)} | ${PARTS.map(cell).join(' | ')} |`);
    }
  }
}

main();
