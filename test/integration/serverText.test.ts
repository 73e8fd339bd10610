// What a server says in a failed reply (issue 9, item 16): shown on one line, clipped and without control
// characters; kept whole in the OpenHands log, escaped onto one line.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { server } from './serverControl';

describe('server text in errors and in the log (issue 9, item 16)', () => {
  const t = useFreshExtension();

  it('the error shows it cleaned and clipped; the log keeps all of it', async () => {
    const file = vscode.Uri.joinPath(t.api.logUri, 'OpenHands.log').fsPath;
    const before = (await readFile(file, 'utf8').catch(() => '')).length;
    const detail = `first line\nsecond line \u001b[31mred\u0007 ${'x'.repeat(3000)} END-OF-SERVER-TEXT`;
    await server.addFault({
      kind: 'status',
      status: 500,
      body: { detail },
      match: { path: '/api/v1/sandboxes/search' },
      times: 1,
    });
    try {
      await t.api.store.refresh().catch(() => undefined);
      const error = t.api.store.lastError;
      assert.ok(error, 'the refresh failed');
      assert.match(error.message, /^The OpenHands server failed \(500\)/);
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(error.message, /[\u0000-\u001f\u007f]/, 'no newline or control character is shown');
      assert.ok(error.message.length <= 1000, `a message of ${error.message.length} characters`);
      assert.ok(!error.message.includes('END-OF-SERVER-TEXT'), 'the shown text is clipped');
      const written = await eventually(
        async () => (await readFile(file, 'utf8')).slice(before),
        (text) => text.includes('END-OF-SERVER-TEXT'),
        4000,
      );
      const line = written.split('\n').find((entry) => entry.includes('END-OF-SERVER-TEXT')) ?? '';
      assert.ok(line.includes('first line\\nsecond line \\u001b[31mred\\u0007'), 'escaped, on one line');
      assert.ok(line.includes('x'.repeat(3000)), 'whole');
    } finally {
      await server.clearFaults();
    }
  });
});
