/** The docs-test markers: what each gives the examples test, and the mistakes it names instead of skipping. */
import { expect } from 'chai';
import { docsTestBlocks } from './docs-blocks.js';

const page = (...parts: string[]) => parts.join('\n');
const fence = (lang: string, code: string) => `\`\`\`${lang}\n${code}\n\`\`\``;

describe('Docs: the docs-test markers', () => {
  it('reads file, setup, background and run blocks in page order, list indentation removed', () => {
    const blocks = docsTestBlocks(
      page(
        '<!-- docs-test: setup -->',
        fence('sh', 'npm install --save-dev tsx'),
        '<!-- docs-test: file receiver.py -->',
        fence('python', 'print("hi")'),
        'text',
        '1. Start it:',
        '   <!-- docs-test: background ready="listening on" expect="user.created" -->',
        '   ```sh',
        '   python receiver.py',
        '   ```',
        '<!-- docs-test: run -->',
        fence('sh', 'curl -sf "$DSYNC/healthz"'),
        fence('sh', 'echo not marked'),
      ),
      'docs/page.md',
    );
    expect(blocks).to.deep.equal([
      { mode: 'setup', lang: 'sh', code: 'npm install --save-dev tsx\n', line: 1 },
      { mode: 'file', name: 'receiver.py', lang: 'python', code: 'print("hi")\n', line: 5 },
      {
        mode: 'background',
        ready: 'listening on',
        expect: 'user.created',
        lang: 'sh',
        code: 'python receiver.py\n',
        line: 11,
      },
      { mode: 'run', lang: 'sh', code: 'curl -sf "$DSYNC/healthz"\n', line: 15 },
    ]);
  });

  it('names a malformed marker and its line', () => {
    const bad =
      (marker: string, lang = 'sh') =>
      () =>
        docsTestBlocks(page('intro', marker, fence(lang, 'x')), 'docs/page.md');
    expect(bad('<!-- docs-test: launch -->')).to.throw('docs/page.md:2: unknown docs-test mode "launch"');
    expect(bad('<!-- docs-test: background -->')).to.throw('docs/page.md:2: a docs-test background block needs ready=');
    expect(bad('<!-- docs-test: run -->', 'python')).to.throw('docs/page.md:2: a docs-test run block is a shell block');
    expect(bad('<!-- docs-test: file -->', 'python')).to.throw('docs/page.md:2: docs-test file takes one file name');
    expect(bad('<!-- docs-test: run wait="5" -->')).to.throw('docs/page.md:2: unknown docs-test attribute wait');
    expect(bad('<!-- docs-test: setup expect="ok" -->')).to.throw(
      'docs/page.md:2: a docs-test setup block takes no attributes',
    );
    expect(() => docsTestBlocks(page('<!-- docs-test: run -->', 'no fence'), 'docs/page.md')).to.throw(
      'docs/page.md:1: a docs-test marker must be followed by a code fence',
    );
  });
});
