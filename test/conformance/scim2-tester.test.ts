/**
 * External conformance: the PyPI `scim2-tester` suite (through `scim2-cli`), which none of us wrote, run
 * against the real server over HTTP on both stores. `test/setup.sh` installs it (location: SCIM2_BIN in
 * test/tools.sh).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { STORE_KINDS, openStore, startService, type Service } from '../support/harness.js';
import { toolBinary } from '../support/tools.js';

interface Run {
  code: number;
  output: string;
}

function runScim2(endpoint: string, token: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      toolBinary('SCIM2_BIN'),
      ['--url', endpoint, 'test'],
      {
        env: { ...process.env, SCIM_CLI_HEADERS: `Authorization: Bearer ${token}`, NO_COLOR: '1' },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

for (const kind of STORE_KINDS) {
  describe(`conformance: scim2-tester (${kind} store)`, function () {
    this.timeout(180_000);
    let svc: Service;
    before(async () => {
      svc = await startService(await openStore(kind, 5));
    });
    after(() => svc.close());

    it('passes every check of scim2-tester', async () => {
      const d = await svc.createDirectory({ name: 'Conformance' });
      const run = await runScim2(d.scim.endpoint, d.scim.secret);
      const lines = run.output.split('\n');
      const errors = lines.filter((l) => /^(ERROR|CRITICAL)\b/.test(l));
      const successes = lines.filter((l) => /^SUCCESS\b/.test(l)).length;
      console.log(`      scim2-tester: ${successes} checks succeeded, ${errors.length} failed (exit ${run.code})`);
      expect(errors, run.output.slice(-4000)).to.deep.equal([]);
      expect(run.code, run.output.slice(-2000)).to.equal(0);
      expect(successes).to.be.greaterThan(20);
    });
  });
}
