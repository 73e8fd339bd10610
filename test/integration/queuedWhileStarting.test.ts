// A message typed while a conversation starts, in a real VS Code against the test server held in
// STARTING: New Conversation opens the panel at once, the page's message goes to the server's queue
// and shows as queued, and once the start is let go it is the agent's user message, after the task.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closePanels, panels } from './conversations';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { server } from './serverControl';

describe('a message typed while the conversation starts, in a real VS Code', () => {
  const t = useFreshExtension();
  afterEach(async () => {
    await server.holdStarts(false);
    await closePanels(t.api);
  });

  it('opens the panel at once, queues the message, and shows it delivered after the start', async () => {
    await server.holdStarts(true);
    const started = vscode.commands.executeCommand<string | undefined>('openhands.newConversation', {
      message: 'Write the release notes',
      repository: null,
      sandboxId: null,
    });
    const [id] = await eventually(
      () => panels(t.api).openIds(),
      (ids) =>
        ids.length === 1 &&
        panels(t.api).snapshot(ids[0]!)?.header.starting?.status === 'Starting the conversation…',
      { description: 'the panel of the held start', timeoutMs: 30_000 },
    );
    assert.ok(id);
    // what the page posts when the user presses Enter in the message input
    assert.equal(
      panels(t.api).sendFromWebview(id, { type: 'send', text: 'Keep them short', resume: false }),
      true,
    );
    const queued = await eventually(
      () => panels(t.api).snapshot(id)?.header.controls.outbox ?? [],
      (outbox) => outbox[1]?.state === 'queued',
      { description: 'the message shown as queued' },
    );
    assert.deepEqual(
      queued.map((entry) => [entry.text, entry.state]),
      [
        ['Write the release notes', 'queued'],
        ['Keep them short', 'queued'],
      ],
    );
    const requests = await server.requests();
    const queuedOn = requests.find((r) => r.path.endsWith('/pending-messages'));
    assert.match(queuedOn?.path ?? '', /^\/api\/v1\/conversations\/task-[0-9a-f]{32}\/pending-messages$/);

    await server.holdStarts(false);
    assert.equal(await started, id, 'the conversation has the id its panel opened with');
    const rows = await eventually(
      () => panels(t.api).snapshot(id),
      (snapshot) =>
        snapshot?.header.controls.outbox.length === 0 &&
        snapshot.rows.filter((row) => row.kind === 'message' && row.role === 'user').length === 2,
      { description: 'the queued message delivered', timeoutMs: 30_000 },
    );
    assert.deepEqual(
      rows?.rows.flatMap((row) => (row.kind === 'message' && row.role === 'user' ? [row.markdown] : [])),
      ['Write the release notes', 'Keep them short'],
    );
    assert.equal(rows?.header.starting ?? null, null);
  });
});
