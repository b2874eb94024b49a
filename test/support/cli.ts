/** The real `dsync` command for tests: spawned the way users start it, on free ports, with its output kept. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { READY_WITHIN_MS, until } from './harness.js';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export interface Running {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
}

/**
 * Spawns `command args` in the repo (or `cwd`) with `env` added; the environment's own PORT/METRICS_PORT never
 * leak in. `detached` makes it lead its own process group (to stop a whole tree with `process.kill(-pid)`).
 * `inherit: false` gives it `env` alone (a reader's shell, not the test runner's).
 */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { detached?: boolean; cwd?: string; inherit?: boolean } = {},
): Running {
  const { PORT: _p, METRICS_PORT: _m, REDIS_URL: _r, DSYNC_API_KEYS: _k, ...base } = process.env;
  const child = spawn(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.inherit === false ? env : { ...base, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let text = '';
  child.stdout!.on('data', (b: Buffer) => (text += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (text += b.toString()));
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  return { child, output: () => text, exited };
}

/** Runs a script with `bash -euo pipefail` in its own process group, so `stop()` ends the whole tree. */
export function bash(
  script: string,
  env: Record<string, string>,
  options: { cwd?: string; inherit?: boolean } = {},
): Running & { stop(): void } {
  const proc = run('bash', ['-euo', 'pipefail', '-c', script], env, { ...options, detached: true });
  return { ...proc, stop: () => proc.child.exitCode === null && process.kill(-proc.child.pid!, 'SIGTERM') };
}

/** Waits until the service answers /healthz on `port`. */
export async function waitHealthy(port: number, proc: Running, timeoutMs = READY_WITHIN_MS): Promise<void> {
  let exitedEarly = false;
  void proc.exited.then(() => (exitedEarly = true));
  await until(
    async () => {
      if (exitedEarly) throw new Error(`dsync exited before it was healthy:\n${proc.output()}`);
      return fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    () => `dsync on port ${port}; output so far:\n${proc.output()}`,
    timeoutMs,
  );
}
