/**
 * The error-code table (src/core/error-codes.ts) holds every code: each DSYNC_* literal of src/ is a code of it
 * (or an environment variable, or a provider's code prefix), and a code it does not hold fails the typecheck.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { envSchema } from '../../../src/config.js';
import { ERROR_CODES } from '../../../src/core/error-codes.js';
import { ContentionError, DsyncError, NotFoundError } from '../../../src/core/errors.js';
import { MassDeletionError } from '../../../src/providers/pull/errors.js';
import { ScimError } from '../../../src/scim/errors.js';
import { repoRoot } from '../../support/cli.js';

const exec = promisify(execFile);
const codes = new Set(Object.keys(ERROR_CODES));

/** Every string literal of src/ that is a DSYNC_* name as a whole, with the file it is in. */
function dsyncLiterals(): Array<{ literal: string; file: string }> {
  const files = readdirSync(join(repoRoot, 'src'), { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.ts'),
  );
  return files.flatMap((file) =>
    [...readFileSync(join(repoRoot, 'src', file), 'utf8').matchAll(/(['"`])(DSYNC_[A-Z0-9_]+)\1/g)].map((m) => ({
      literal: m[2]!,
      file,
    })),
  );
}

describe('error codes: the table holds every code', () => {
  it('every DSYNC_* literal of src/ is a code of the table, an environment variable or a provider code prefix', () => {
    const variables = new Set(Object.keys(envSchema.shape));
    const isPrefix = (name: string) => codes.has(`${name}_MASS_DELETION`) || codes.has(`${name}_SYNC_BUSY`);
    const literals = dsyncLiterals();
    expect(literals.map((l) => l.literal)).to.include.members([
      'DSYNC_INTERNAL',
      'DSYNC_SYNC_RUN_ABANDONED',
      'DSYNC_GOOGLE_WRONG_WORKSPACE',
    ]);
    const unknown = literals.filter(
      ({ literal }) => !codes.has(literal) && !variables.has(literal) && !isPrefix(literal),
    );
    expect(unknown, 'add these codes to src/core/error-codes.ts').to.deep.equal([]);
  });

  it('an error takes its status from its entry unless it gives one', () => {
    expect(new NotFoundError('x').status).to.equal(ERROR_CODES.DSYNC_NOT_FOUND.status).and.to.equal(404);
    expect(new ContentionError().status).to.equal(503);
    expect(new DsyncError('x', 'DSYNC_CONFIG').status, 'no status in the table: a fault of our own').to.equal(500);
    const label = {
      name: 'BambooHR',
      codePrefix: 'DSYNC_BAMBOOHR',
      maxShareVariable: 'DSYNC_HRIS_MAX_DELETE_SHARE',
    } as const;
    expect(new MassDeletionError(label, 'users', 9, 10, 0.2)).to.include({
      code: 'DSYNC_BAMBOOHR_MASS_DELETION',
      status: 409,
    });
    expect(new ScimError(412, 'stale', 'invalidVers')).to.include({ code: 'DSYNC_SCIM_INVALID_VERS', status: 412 });
    expect(new ScimError(429, 'slow down')).to.include({ code: 'DSYNC_SCIM_429', status: 429 });
  });

  it('a code the table does not hold fails the typecheck', async function () {
    this.timeout(60_000);
    const dir = await mkdtemp(join(tmpdir(), 'dsync-codes-'));
    try {
      const errors = JSON.stringify(join(repoRoot, 'src/core/errors.js'));
      await writeFile(
        join(dir, 'listed.ts'),
        `import { DsyncError } from ${errors};\nexport const e = new DsyncError('x', 'DSYNC_NOT_FOUND');\n`,
      );
      await writeFile(
        join(dir, 'unlisted.ts'),
        `import { DsyncError } from ${errors};\nexport const e = new DsyncError('x', 'DSYNC_NOT_IN_THE_TABLE');\n`,
      );
      const tsc = (file: string) =>
        exec(process.execPath, [
          join(repoRoot, 'node_modules/typescript/bin/tsc'),
          '--noEmit',
          '--strict',
          '--module',
          'NodeNext',
          '--target',
          'ES2022',
          '--skipLibCheck',
          '--types',
          'node',
          '--typeRoots',
          join(repoRoot, 'node_modules/@types'),
          join(dir, file),
        ]).then(
          () => '',
          (err: { stdout?: string }) => err.stdout ?? String(err),
        );
      expect(await tsc('listed.ts')).to.equal('');
      expect(await tsc('unlisted.ts')).to.match(
        /'"DSYNC_NOT_IN_THE_TABLE"' is not assignable to parameter of type 'ErrorCode'/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
