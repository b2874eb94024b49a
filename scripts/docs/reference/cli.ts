/**
 * docs/reference/cli.md from the command table of src/cli-commands.ts: the usage `dsync help` prints, each
 * command (what it does, its store, the variables it reads), and the exit statuses.
 */
import {
  COMMAND_NAMES,
  COMMANDS,
  EXIT_STATUSES,
  HELP_WORDS,
  usage,
  type CliCommand,
} from '../../../src/cli-commands.js';
import { anchor, code, generatedBanner, page, table } from './markdown.js';

const variables = (command: CliCommand) =>
  command.env.map((group) => `[${group}](configuration.md#${anchor(group)})`).join(', ');

function commandSection(name: string, command: CliCommand): string {
  return [
    `## \`dsync ${name}\``,
    command.details,
    `**Store:** ${command.store}`,
    `**Reads:** ${variables(command)}.`,
  ].join('\n\n');
}

export function cliPage(
  commands: Record<string, CliCommand> = COMMANDS,
  names: readonly string[] = COMMAND_NAMES,
): string {
  return page(
    generatedBanner('the command table of `src/cli-commands.ts`'),
    '# Command line',
    `\`dsync <command>\` runs one of the commands below: the npm package's \`dsync\` binary, the image's entrypoint (\`node dist/cli.js\`, \`serve\` by default), or \`npm run dsync -- <command>\` in a checkout. The commands take no flags: every setting is an environment variable of the [configuration reference](configuration.md).`,
    table(
      ['Command', 'What it does'],
      names.map((name) => [`[${code(`dsync ${name}`)}](#${anchor(`dsync ${name}`)})`, commands[name]!.summary]),
    ),
    ...names.map((name) => commandSection(name, commands[name]!)),
    '## Help',
    `${HELP_WORDS.map((w) => code(`dsync ${w}`)).join(', ')}, or \`dsync\` alone, print the usage:`,
    `\`\`\`text\n${usage()}\n\`\`\``,
    '## Exit status',
    table(
      ['Status', 'Meaning'],
      EXIT_STATUSES.map((e) => [String(e.status), e.meaning]),
    ),
  );
}
