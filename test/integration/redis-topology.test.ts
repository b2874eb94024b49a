/**
 * The test topologies themselves (test/redis-topology.sh): a started server must not hold the starter's output
 * (a leftover child on CI's pipe hangs CI), and `stop` must end every server, a SIGSTOPped one too.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/cli.js';
import { until } from '../support/harness.js';
import { startTopology } from '../support/redis-topology.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('test/redis-topology.sh', function () {
  this.timeout(30_000);

  it('returns with its output closed: the daemonized servers keep none of the caller’s pipes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dsync-topology-'));
    try {
      const child = spawn('bash', ['test/redis-topology.sh', 'sentinel', dir, 'auto', '--sentinels', '0'], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      // 'close' fires only once every holder of the pipes has closed them: a server still holding one would hang here.
      let timer: NodeJS.Timeout | undefined;
      const stuck = new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`pipes still open after 15 s; output:\n${out}`)), 15_000)),
      );
      const [code] = (await Promise.race([once(child, 'close'), stuck]).finally(() => clearTimeout(timer))) as [number];
      expect(code, out).to.equal(0);
      const master = Number((await readFile(join(dir, 'topology.env'), 'utf8')).match(/^MASTER=.*:(\d+)$/m)![1]);
      expect(
        alive(Number(await readFile(join(dir, String(master), 'redis.pid'), 'utf8'))),
        'the master runs on',
      ).to.equal(true);
    } finally {
      const stop = spawn('bash', ['test/redis-topology.sh', 'stop', dir], { cwd: repoRoot, stdio: 'ignore' });
      await once(stop, 'exit');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stop ends every server, a SIGSTOPped master too, and removes the directory', async () => {
    const topology = await startTopology('sentinel', { sentinels: 0, replicas: 1 });
    const pids = await Promise.all(topology.nodes.map((n) => topology.pid(n)));
    expect(pids.map(alive)).to.deep.equal([true, true]);
    await topology.signal(topology.nodes[0]!, 'SIGSTOP');
    await topology.stop();
    await until(() => !pids.some(alive), 'every server to be gone', 10_000);
    expect(existsSync(topology.dir), 'the topology directory').to.equal(false);
  });
});
