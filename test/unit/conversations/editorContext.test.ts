import assert from 'node:assert/strict';
import { contextLabel, messageWithContext } from '../../../src/conversations/editorContext';

describe('editor context for a new conversation', () => {
  const selection = {
    path: 'src/auth/login.ts',
    languageId: 'typescript',
    startLine: 12,
    endLine: 14,
    text: 'if (!token) {\n  throw new Error("no token");\n}',
  };

  it('labels a range, a single line and a whole file', () => {
    assert.equal(contextLabel(selection), 'src/auth/login.ts:12-14');
    assert.equal(contextLabel({ ...selection, endLine: 12 }), 'src/auth/login.ts:12');
    assert.equal(contextLabel({ path: 'README.md', languageId: 'markdown' }), 'README.md');
  });

  it('puts the instruction first, then the file, the lines and the fenced code', () => {
    assert.equal(
      messageWithContext('  Why can this throw?  ', selection),
      'Why can this throw?\n\nFile: `src/auth/login.ts` (lines 12-14):\n\n```typescript\n' +
        'if (!token) {\n  throw new Error("no token");\n}\n```',
    );
  });

  it('names only the file when nothing is selected', () => {
    assert.equal(
      messageWithContext('Add tests', { path: 'src/cart.ts', languageId: 'typescript' }),
      'Add tests\n\nFile: `src/cart.ts`',
    );
  });

  it('uses a fence the code cannot close', () => {
    const markdown = { path: 'docs/a.md', languageId: 'markdown', startLine: 1, text: 'x\n```js\ny\n```\n' };
    const message = messageWithContext('Fix', markdown);
    assert.ok(message.endsWith('\n````'), message);
    assert.ok(message.includes('(line 1):\n\n````markdown\nx\n```js\ny\n```\n````'));
  });
});
