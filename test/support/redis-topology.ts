/**
 * Real Redis topologies a test owns (to SIGKILL / SIGSTOP a master, move slots, try TLS and ACL users):
 * test/redis-topology.sh run in a fresh directory. The servers are daemonized by the script, so none holds
 * this process' pipes; `stop()` ends them all (also a SIGSTOPped one) and removes the directory.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { repoRoot } from './cli.js';

const exec = promisify(execFile);

export interface TopologyOptions {
  /** Cluster: masters (default 3); replicas per master (default 1), on Sentinel too. */
  masters?: number;
  replicas?: number;
  /** Sentinel only: how many Sentinels (default 3; 0 = a plain master and its replicas). */
  sentinels?: number;
  /** TLS only, certificates made in the topology's directory (`caFile`). */
  tls?: boolean;
  /** An ACL user with every right; the default user is then off (on the Sentinels too). */
  user?: { username: string; password: string };
}

export interface RedisTopology {
  kind: 'cluster' | 'sentinel';
  dir: string;
  /** Cluster: every data node; sentinel: the first master, then its replicas. `host:port` each. */
  nodes: string[];
  /** Sentinel only: the Sentinels and the master name they monitor. */
  sentinels: string[];
  name: string;
  caFile?: string;
  user?: { username: string; password: string };
  /** The environment `dsync` reads to use this topology. */
  env(): Record<string, string>;
  /** pid of the redis-server listening on `node` (`host:port`), from its pidfile. */
  pid(node: string): Promise<number>;
  /** Sends `signal` (SIGKILL a master, SIGSTOP / SIGCONT it) to the redis-server on `node`. */
  signal(node: string, signal: NodeJS.Signals): Promise<void>;
  /**
   * Starts the killed redis-server of `node` again from its config, as Kubernetes restarts a pod (it rejoins as a
   * replica).
   */
  restart(node: string): Promise<void>;
  /** The master serving `key` now: its slot's master on a cluster, the Sentinels' master otherwise. */
  masterOf(key: string): Promise<string>;
  /** The replicas of the master `node` now (`host:port` each). */
  replicasOf(node: string): Promise<string[]>;
  /** One plain connection to `node` (with the topology's TLS and user), for admin commands; close it after. */
  connect(node: string): Redis;
  /** `redis-cli` with the topology's TLS and user; resolves with its output. */
  cli(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

const portOf = (node: string) => Number(node.split(':').pop());
const list = (value: string | undefined) => (value ? value.split(',') : []);

function flags(o: TopologyOptions): string[] {
  return [
    ...(o.masters !== undefined ? ['--masters', String(o.masters)] : []),
    ...(o.replicas !== undefined ? ['--replicas', String(o.replicas)] : []),
    ...(o.sentinels !== undefined ? ['--sentinels', String(o.sentinels)] : []),
    ...(o.tls ? ['--tls'] : []),
    ...(o.user ? ['--user', `${o.user.username}:${o.user.password}`] : []),
  ];
}

async function script(...args: string[]): Promise<string> {
  const { stdout } = await exec('bash', [join(repoRoot, 'test/redis-topology.sh'), ...args], {
    cwd: repoRoot,
    timeout: 60_000,
  });
  return stdout;
}

/** Reads <dir>/topology.env (KEY=value lines) that the script writes once the topology is up. */
async function describe(dir: string): Promise<Record<string, string>> {
  const text = await readFile(join(dir, 'topology.env'), 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** Starts a topology (a few seconds: the script waits until the cluster / the Sentinels agree). */
export async function startTopology(
  kind: 'cluster' | 'sentinel',
  options: TopologyOptions = {},
): Promise<RedisTopology> {
  const dir = await mkdtemp(join(tmpdir(), `dsync-${kind}-`));
  try {
    await script(kind, dir, 'auto', ...flags(options));
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return topologyOf(kind, dir, await describe(dir));
}

/** The topology test/redis-topology.sh described in `dir`. */
function topologyOf(kind: 'cluster' | 'sentinel', dir: string, d: Record<string, string>): RedisTopology {
  const caFile = d['TLS_CA'] || undefined;
  const user = d['USERNAME'] ? { username: d['USERNAME'], password: d['PASSWORD'] ?? '' } : undefined;
  const topology: RedisTopology = {
    kind,
    dir,
    nodes: kind === 'cluster' ? list(d['NODES']) : [d['MASTER']!, ...list(d['REPLICAS'])],
    sentinels: list(d['SENTINELS']),
    name: d['NAME'] ?? '',
    ...(caFile && { caFile }),
    ...(user && { user }),
    env() {
      const env: Record<string, string> =
        kind === 'cluster'
          ? { REDIS_CLUSTER_NODES: topology.nodes.join(',') }
          : { REDIS_SENTINELS: topology.sentinels.join(','), REDIS_SENTINEL_NAME: topology.name };
      if (user) Object.assign(env, { REDIS_USERNAME: user.username, REDIS_PASSWORD: user.password });
      if (user && kind === 'sentinel')
        Object.assign(env, { REDIS_SENTINEL_USERNAME: user.username, REDIS_SENTINEL_PASSWORD: user.password });
      if (caFile)
        Object.assign(env, {
          REDIS_TLS: 'true',
          REDIS_TLS_CA_FILE: caFile,
          ...(kind === 'sentinel' && { REDIS_SENTINEL_TLS: 'true' }),
        });
      return env;
    },
    async pid(node) {
      return Number((await readFile(join(dir, String(portOf(node)), 'redis.pid'), 'utf8')).trim());
    },
    async signal(node, signal) {
      process.kill(await topology.pid(node), signal);
    },
    async restart(node) {
      await exec('redis-server', [join(dir, String(portOf(node)), 'redis.conf')]); // daemonized by its config
    },
    async masterOf(key) {
      if (kind === 'sentinel') {
        const [host, port] = (
          await topology.cli(
            '-p',
            String(portOf(topology.sentinels[0]!)),
            'sentinel',
            'get-master-addr-by-name',
            topology.name,
          )
        )
          .trim()
          .split('\n');
        return `${host}:${port}`;
      }
      // Ask a node that is up: the test may have killed some.
      for (const node of topology.nodes) {
        const admin = topology.connect(node);
        admin.on('error', () => undefined);
        try {
          const slot = Number(await admin.cluster('KEYSLOT', key));
          const range = (await admin.cluster('SLOTS')).find(([from, to]) => slot >= from && slot <= to);
          if (range?.[2]) return `${range[2][0]}:${range[2][1]}`;
        } catch {
          // this node is down: ask the next one
        } finally {
          admin.disconnect();
        }
      }
      throw new Error(`no live node knows the master of ${key}`);
    },
    async replicasOf(node) {
      const admin = topology.connect(node);
      try {
        const lines = String(await admin.info('replication')).split('\r\n');
        // slaveN:ip=127.0.0.1,port=6380,state=online,...
        return lines
          .filter((l) => /^slave\d+:/.test(l))
          .map((l) => `${/ip=([^,]+)/.exec(l)![1]}:${/port=(\d+)/.exec(l)![1]}`);
      } finally {
        admin.disconnect();
      }
    },
    connect(node) {
      return new Redis({
        host: node.split(':')[0],
        port: portOf(node),
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        ...(user && { username: user.username, password: user.password }),
        ...(caFile && { tls: { ca: [readFileSync(caFile)] } }),
      });
    },
    async cli(...args) {
      const auth = [
        ...(caFile ? ['--tls', '--cacert', caFile] : []),
        ...(user ? ['--user', user.username, '--pass', user.password, '--no-auth-warning'] : []),
      ];
      const { stdout } = await exec('redis-cli', [...auth, ...args], { timeout: 120_000 });
      return stdout;
    },
    async stop() {
      await script('stop', dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return topology;
}
