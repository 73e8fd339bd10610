// Images in a real VS Code: a screenshot the agent took is drawn from bytes the host read whole and
// checked, and opens whole in VS Code's image preview; Send Image to Conversation… puts an image under
// a panel's input, the panel sends it as ImageContent beside the text, and the agent server stores it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ImageReply } from '../../src/webviews/conversation/shared/protocol';
import { setSetting, useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { actionEvent, observationEvent } from '../shared/agentEvents';
import { closePanels, openLive, panels, quietConversation } from './conversations';
import { agentServer } from './serverControl';

// compiled to out/test/integration: the fixtures stay in the repository's test folder
const IMAGES = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'images');
const fixture = (name: string) => fs.readFileSync(path.join(IMAGES, name));

/** The browser step's action, which the screenshot's row is named by. */
const LOOK_ACTION_ID = 'a0b1c2d3-0000-4000-8000-00000000a001';

describe('images in a real VS Code', () => {
  const t = useFreshExtension();
  afterEach(() => closePanels(t.api));
  // the server starts over for the next file, but the extension keeps what it read: the watch of the
  // conversation a message was sent to lets go, and a connection change (here the timeout, there and
  // back) drops the closed panels' transcripts, as another server would
  after(async () => {
    t.api.watch.releaseAll();
    await setSetting('requestTimeoutSeconds', 29);
    await t.api.connection.rebuild();
    await setSetting('requestTimeoutSeconds', undefined);
    await t.api.connection.rebuild();
  });

  it("draws a browser screenshot from the agent server's whole event, and opens it in the image preview", async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    const png = fixture('page.png');
    // 8 KB of base64, past the log's image head: only the agent server holds it whole
    const padded = png.toString('base64');
    const look = { tool: 'browser_get_state', callId: 'call_look' };
    await agentServer.append(conversation.id, [
      {
        ...actionEvent(look, { kind: 'BrowserGetStateAction', include_screenshot: true }),
        id: LOOK_ACTION_ID,
      },
      observationEvent(look, LOOK_ACTION_ID, {
        kind: 'BrowserObservation',
        content: [{ type: 'text', text: 'Page: Shop' }],
        is_error: false,
        screenshot_data: padded,
      }),
    ]);
    const observation = (await agentServer.events(conversation.id)).find(
      (event) =>
        event.kind === 'ObservationEvent' &&
        (event as Record<string, unknown>)['action_id'] === LOOK_ACTION_ID,
    );
    assert.ok(observation);
    const row = await eventually(
      () =>
        panels(t.api)
          .snapshot(conversation.id)
          ?.rows.find((candidate) => candidate.id.startsWith('a0b1c2d3')),
      (found) => found?.kind === 'action' && found.images !== undefined,
    );
    assert.ok(row?.kind === 'action');
    assert.deepEqual(row.images, [
      { event: observation.id, index: 0, width: 320, height: 200, label: 'Screenshot: 320×200 PNG' },
    ]);
    panels(t.api).sendFromWebview(conversation.id, { type: 'image', event: observation.id, index: 0 });
    const reply = await eventually(
      () =>
        panels(t.api)
          .posted(conversation.id)
          .find((message): message is ImageReply => (message as ImageReply).type === 'image'),
      (found) => found !== undefined,
    );
    assert.equal(reply?.image?.base64, padded);
    panels(t.api).sendFromWebview(conversation.id, { type: 'openImage', event: observation.id, index: 0 });
    const tab = await eventually(
      () => vscode.window.tabGroups.activeTabGroup.activeTab,
      (active) =>
        active?.input instanceof vscode.TabInputCustom && active.input.uri.scheme === 'openhands-image',
    );
    const input = tab?.input as vscode.TabInputCustom;
    assert.equal(input.viewType, 'imagePreview.previewEditor');
    assert.deepEqual(Buffer.from(await vscode.workspace.fs.readFile(input.uri)), png);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(input.uri, Buffer.from('x'))));
  });

  it('Send Image to Conversation… puts the image under the input; sent, the agent server stores it beside the text', async () => {
    const conversation = quietConversation(t.api);
    await openLive(t.api, conversation.id);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-images-'));
    const jpeg = path.join(dir, 'page.jpg');
    fs.writeFileSync(jpeg, fixture('page.jpg'));
    const fake = path.join(dir, 'logo.png');
    fs.writeFileSync(fake, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

    // not an image: nothing is attached
    const refused = await vscode.commands.executeCommand(
      'openhands.sendImageToConversation',
      vscode.Uri.file(fake),
      undefined,
      conversation.id,
    );
    assert.equal(refused, false);

    const attached = await vscode.commands.executeCommand(
      'openhands.sendImageToConversation',
      vscode.Uri.file(jpeg),
      [vscode.Uri.file(jpeg)],
      conversation.id,
    );
    assert.equal(attached, true);
    const attach = await eventually(
      () =>
        panels(t.api)
          .posted(conversation.id)
          .find((message) => (message as { type: string }).type === 'attach') as
          { type: 'attach'; images: { name: string; mime: string; base64: string }[] } | undefined,
      (found) => found !== undefined,
    );
    assert.deepEqual(
      attach?.images.map(({ name, mime }) => ({ name, mime })),
      [{ name: 'page.jpg', mime: 'image/jpeg' }],
    );
    // the page sends it with the user's words
    panels(t.api).sendFromWebview(conversation.id, {
      type: 'send',
      text: 'Does the shop look like this?',
      resume: false,
      images: attach?.images,
    });
    const dataUrl = `data:image/jpeg;base64,${fixture('page.jpg').toString('base64')}`;
    const stored = await eventually(
      async () => (await agentServer.events(conversation.id)) as Record<string, unknown>[],
      (events) =>
        events.some((event) => JSON.stringify(event['llm_message'] ?? null).includes(dataUrl.slice(0, 80))),
    );
    const message = stored.find((event) =>
      JSON.stringify(event['llm_message'] ?? null).includes('Does the shop'),
    );
    assert.deepEqual((message?.['llm_message'] as { content: unknown[] }).content.slice(1), [
      { cache_prompt: false, type: 'image', image_urls: [dataUrl] },
    ]);
    // the echo shows in the user's bubble with the image
    const bubble = await eventually(
      () =>
        panels(t.api)
          .snapshot(conversation.id)
          ?.rows.find((row) => row.id === message?.id),
      (row) => row?.kind === 'message' && row.images?.length === 1,
    );
    assert.ok(bubble?.kind === 'message');
    assert.equal(bubble.images?.[0]?.label, 'Image: 320×200 JPEG');
    // the message made the scripted agent run: it ends before the next test (whose reset would leave
    // the extension following a run the server no longer has)
    await eventually(
      async () =>
        (await agentServer.conversations()).find(
          (c) => c.id.replace(/-/g, '') === conversation.id.replace(/-/g, ''),
        ),
      (found) => found?.execution_status === 'finished',
      30_000,
    );
  });
});
