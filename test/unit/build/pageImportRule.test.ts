// The import rule of the pages, the webviews' shared/ and src/common (eslint.config.mjs), run by ESLint
// itself on one import at a time, as if written in a file of each folder: an allow-list, so anything of
// the host, however it is spelled, is refused with a message that says what may be imported.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import { REPOSITORY_ROOT } from '../../shared/repository';

const ROOT = REPOSITORY_ROOT;

/** A file of each folder the rule covers (none exists: ESLint lints the text under its name). */
const PAGE_FILE = 'src/webviews/mcpForm/webview/probe.ts';
const SHARED_FILE = 'src/webviews/mcpForm/shared/probe.ts';
const COMMON_FILE = 'src/common/probe.ts';

describe('page import rule (eslint)', function () {
  this.timeout(60_000);
  const eslint = new ESLint({ cwd: ROOT });

  /** The import rule's messages on the code, written in `file`. */
  async function refusals(code: string, file: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    assert.ok(result, 'ESLint gave no result');
    return result.messages
      .filter(
        (message) => message.ruleId === 'no-restricted-imports' || message.ruleId === 'no-restricted-syntax',
      )
      .map((message) => message.message);
  }

  async function assertRefused(file: string, specifiers: string[], saying: string): Promise<void> {
    for (const specifier of specifiers) {
      const messages = await refusals(`import '${specifier}';\n`, file);
      assert.equal(messages.length, 1, `${specifier} in ${file}: ${messages.join(' | ')}`);
      assert.ok(messages[0]?.includes(saying), `${specifier}: ${messages[0]}`);
    }
  }

  async function assertAllowed(file: string, specifiers: string[]): Promise<void> {
    for (const specifier of specifiers)
      assert.deepEqual(await refusals(`import '${specifier}';\n`, file), [], `${specifier} in ${file}`);
  }

  it('a page may import its folder, its shared/, the page kit, src/common, zodLocale and its packages', async () => {
    await assertAllowed(PAGE_FILE, [
      './view',
      './mcpForm.css',
      '../shared/credentials',
      '../../kit/shared/messages',
      '../../kit/webview/vscodeApi',
      '../../../common/credentialText',
      '../../../zodLocale',
      'lit',
      'lit/directives/repeat.js',
      '@vscode-elements/elements/dist/vscode-button/index.js',
      'marked',
      'dompurify',
      'zod/mini',
    ]);
  });

  it('a page may import nothing of the host, however the path is spelled', async () => {
    await assertRefused(
      PAGE_FILE,
      [
        '../../../api/redact',
        '../../../api',
        './../../../api',
        '../shared/../../../api/redact',
        '../../../zodLocale/../api',
        '../../../changes/patchApply',
        '../../../state/connection',
        '../../../core/log',
        '../../../commands/register',
        '../../../views/nodes',
        '../../../services',
        '../host/panel',
        '../../kit/host/panel',
        '../../conversation/webview/text',
        'vscode',
        'axios',
        'ws',
        'node:fs',
        'lit-html-but-not-lit',
      ],
      'a page runs in the browser',
    );
  });

  it('a page’s re-exports, dynamic imports and import() types are read too', async () => {
    const code = [
      "export * from '../../../state/connection';",
      "export type Log = import('../../../core/log').Log;",
      "export const load = () => import('../../../views/nodes');",
      '',
    ].join('\n');
    const messages = await refusals(code, PAGE_FILE);
    assert.equal(messages.length, 3, messages.join(' | '));
    for (const message of messages) assert.ok(message.includes('a page runs in the browser'), message);
  });

  it('shared/ may import its folder, the kit’s shared/, src/common, zodLocale and zod only', async () => {
    await assertAllowed(SHARED_FILE, [
      './protocol',
      '../../kit/shared/messages',
      '../../../common/credentialText',
      '../../../zodLocale',
      'zod/mini',
    ]);
    await assertRefused(
      SHARED_FILE,
      [
        '../../../api/redact',
        '../../kit/webview/vscodeApi',
        '../webview/main',
        '../host/panel',
        'lit',
        'vscode',
      ],
      "a webview's shared/ is bundled into its page and into the host",
    );
  });

  it('src/common imports nothing but its own folder', async () => {
    await assertAllowed(COMMON_FILE, ['./credentialText']);
    await assertRefused(
      COMMON_FILE,
      ['../api/redact', '../zodLocale', 'zod', 'vscode'],
      'src/common is below both',
    );
  });
});
