/**
 * The commands of `dsync` (src/cli-commands.ts) are what the CLI runs and prints: its usage lists each one, an
 * unknown one exits 2, a command run with the in-memory store where it needs Redis exits 1, and every command
 * the chart starts is one of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { COMMAND_NAMES, COMMANDS, usage } from '../../src/cli-commands.js';
import { repoRoot, run } from '../support/cli.js';

const dsync = async (args: string[]) => {
  const proc = run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {}, { inherit: false });
  const status = await proc.exited;
  return { status, output: proc.output() };
};

describe('dsync: the commands of the table', function () {
  this.timeout(60_000);

  it('help prints the usage, which lists every command with its summary', async () => {
    const { status, output } = await dsync(['help']);
    expect(status).to.equal(0);
    expect(output).to.equal(`${usage()}\n`);
    for (const name of COMMAND_NAMES)
      expect(output).to.match(new RegExp(`^  ${name} +${COMMANDS[name].summary.replace(/[()]/g, '\\$&')}$`, 'm'));
  });

  it('an unknown command, or a known one with more words, exits 2 with the usage', async () => {
    for (const args of [
      ['cron', 'bogus'],
      ['serve', 'extra'],
    ]) {
      const { status, output } = await dsync(args);
      expect(status, args.join(' ')).to.equal(2);
      expect(output)
        .to.contain(`dsync: unknown command "${args.join(' ')}"`)
        .and.to.contain(usage());
    }
  });

  it('a cron command on the in-memory store exits 1 with a configuration error', async () => {
    const { status, output } = await dsync(['cron', 'sync-hris']);
    expect(status).to.equal(1);
    expect(output).to.match(/^dsync: configuration error: cron sync-hris needs a Redis store/);
  });

  it('every command the chart starts is a command of the table', () => {
    const templates = join(repoRoot, 'charts/dsync/templates');
    const started = readdirSync(templates)
      .filter((file) => file.endsWith('.yaml'))
      .flatMap((file) => {
        const text = readFileSync(join(templates, file), 'utf8');
        return [
          ...[...text.matchAll(/^\s*args: \[(\w+)\]/gm)].map((m) => m[1]!),
          ...[...text.matchAll(/"args" \(list ((?:"[\w-]+" ?)+)\)/g)].map((m) => m[1]!.replace(/"/g, '')),
        ];
      });
    expect(started).to.include.members(['serve', 'operator', 'cron process-events']);
    for (const command of started) expect(COMMAND_NAMES, command).to.include(command);
  });
});
