// The agent's changes in a real VS Code against the test server's agent-server double, whose sandbox
// folders are real git repositories: the Changes node and its files, the native diff editor on
// `openhands-change:` documents, Open All Changes, the panel's list (refreshed when the agent edits),
// Apply to a local clone (clean, conflict, dirty tree with and without stash, one file), Save as Patch.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentEvent, AppConversation } from '../../src/api';
import type { ApplyOutcome } from '../../src/commands/changes/applyFlow';
import type { ChangedFileNode, ChangesNode, OpenHandsNode } from '../../src/views/nodes';
import { useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { actionEvent, observationEvent, withEnvelope } from '../shared/agentEvents';
import { firstRunningConversation } from './conversations';
import { agentServer, server, type RecordedRequest } from './serverControl';
import { git, isAgentServerFile, treeOf } from '../shared/sandboxWorkspace';

/** A local clone of the sandbox's repository at its base commit: what a user has on their machine. */
function localClone(sandboxDir: string): string {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-local-'));
  const clone = path.join(parent, 'local');
  git(parent, 'clone', '--quiet', sandboxDir, clone);
  return clone;
}

describe("the agent's changes in a real VS Code", function () {
  this.timeout(90_000);
  const t = useFreshExtension();
  let conversation: AppConversation;
  let sample: Awaited<ReturnType<typeof agentServer.sampleWorkspace>>;
  const agentFiles = () => sample.changes.filter((change) => !isAgentServerFile(change.path));

  beforeEach(async () => {
    conversation = await firstRunningConversation(t.api);
    sample = await agentServer.sampleWorkspace(conversation.id);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('lists exactly the agent’s files under the conversation’s Changes node', async () => {
    assert.ok(
      sample.changes.some((change) => change.path.startsWith('workspace/conversations/')),
      "the double's sandbox folder holds the agent server's own files, as a process sandbox does",
    );
    const provider = t.api.conversationsProvider;
    const row: OpenHandsNode = { kind: 'conversation', conversation };
    assert.equal(provider.getTreeItem(row).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const [changesNode] = (await provider.getChildren(row)) as ChangesNode[];
    assert.equal(changesNode?.kind, 'changes');
    const files = (await provider.getChildren(changesNode)) as ChangedFileNode[];
    assert.deepEqual(
      files.map((file) => `${file.change.status} ${file.change.path}`).sort(),
      agentFiles()
        .map((change) => `${change.status} ${change.path}`)
        .sort(),
    );
    const item = provider.getTreeItem(changesNode as ChangesNode);
    assert.equal(item.description, `${files.length} files`);
  });

  it('a re-read that finds the same files redraws nothing; a new file redraws the conversation’s row only', async () => {
    const provider = t.api.conversationsProvider;
    const row = (provider.getChildren() as OpenHandsNode[]).find(
      (node) => node.kind === 'conversation' && node.conversation.id === conversation.id,
    );
    assert.ok(row, 'the conversation is listed');
    const [changesNode] = (await provider.getChildren(row)) as ChangesNode[];
    await provider.getChildren(changesNode as ChangesNode);
    const events: (OpenHandsNode[] | undefined)[] = [];
    const subscription = provider.onDidChangeTreeData((event) => events.push(event));
    try {
      const before = t.api.changes.latest(conversation.id)?.version;
      await t.api.changes.refresh(conversation.id);
      assert.notEqual(t.api.changes.latest(conversation.id)?.version, before, 'read again');
      assert.equal(
        events.length,
        0,
        'the same files: no redraw (a click on a row would find its command gone)',
      );

      fs.writeFileSync(path.join(sample.dir, 'added-by-the-agent.txt'), 'new\n');
      await t.api.changes.refresh(conversation.id);
      const redraws = events.slice();
      assert.equal(redraws.length, 1, `one redraw, not ${redraws.length}`);
      assert.deepEqual(
        redraws[0]?.map((node) => (node.kind === 'conversation' ? node.conversation.id : node.kind)),
        [conversation.id],
        'the conversation’s row, not the whole tree',
      );
      const files = (await provider.getChildren(changesNode as ChangesNode)) as ChangedFileNode[];
      assert.ok(files.some((file) => file.change.path === 'added-by-the-agent.txt'));
    } finally {
      subscription.dispose();
      fs.rmSync(path.join(sample.dir, 'added-by-the-agent.txt'), { force: true });
    }
  });

  it('opens an updated file in the diff editor: the base on the left, the agent’s version on the right', async () => {
    const updated = agentFiles().find((change) => change.status === 'UPDATED' && change.path.endsWith('.ts'));
    assert.ok(updated, 'the sample updates a .ts file');
    const opened = await vscode.commands.executeCommand<boolean>('openhands.openChange', {
      conversationId: conversation.id,
      path: updated.path,
    });
    assert.equal(opened, true);
    const tab = await eventually(
      () => vscode.window.tabGroups.activeTabGroup.activeTab,
      (active) => active?.input instanceof vscode.TabInputTextDiff,
    );
    const input = tab?.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, 'openhands-change');
    assert.equal(input.modified.scheme, 'openhands-change');
    const left = await vscode.workspace.openTextDocument(input.original);
    const right = await vscode.workspace.openTextDocument(input.modified);
    const base = git(sample.dir, 'show', `${sample.head}:${updated.path}`);
    const current = fs.readFileSync(path.join(sample.dir, updated.path), 'utf8');
    // the agent server strips the base and re-joins the current file's lines; the final newline it
    // drops is put back
    assert.equal(left.getText(), `${base.trim()}\n`);
    assert.equal(right.getText(), `${current.split(/\r?\n/).join('\n').replace(/\n$/, '')}\n`);
    assert.notEqual(left.getText(), right.getText());
    assert.equal(right.languageId, 'typescript', 'the language comes from the file name');
  });

  it('an added file diffs against nothing; deleted and big files say why instead of failing, a PNG is a picture', async () => {
    const added = agentFiles().find((change) => change.status === 'ADDED' && change.path.endsWith('.md'));
    assert.ok(added, 'the sample adds a markdown file');
    const sides = await t.api.changes.sides(conversation.id, added as never);
    assert.equal(sides.kind, 'text');
    assert.equal(sides.kind === 'text' && sides.original, '');
    const kinds: Record<string, string> = {};
    for (const change of agentFiles())
      kinds[change.path] = (await t.api.changes.sides(conversation.id, change as never)).kind;
    const deleted = agentFiles().filter((change) => change.status === 'DELETED');
    assert.ok(deleted.length > 0, 'the sample deletes a file');
    for (const change of deleted) assert.equal(kinds[change.path], 'deleted', change.path);
    assert.equal(kinds['logo.png'], 'image', 'a 1×1 PNG on both sides');
    assert.equal(kinds['big.txt'], 'tooLarge');
    const opened = await vscode.commands.executeCommand<boolean>('openhands.openChange', {
      conversationId: conversation.id,
      path: 'big.txt',
    });
    assert.equal(opened, false, 'a message instead of a diff');
  });

  it('opens all changes in the multi-file diff', async () => {
    const count = await vscode.commands.executeCommand<number>('openhands.openAllChanges', conversation.id);
    assert.equal(count, agentFiles().length);
    const tab = await eventually(
      () => vscode.window.tabGroups.activeTabGroup.activeTab,
      (active) => Boolean(active?.label.includes('Agent’s changes')),
    );
    assert.ok(tab, 'the multi-file diff is the active tab');
  });

  it('applies the whole change to a local clone: every byte as the agent left it', async () => {
    const clone = localClone(sample.dir);
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
      conversationId: conversation.id,
      folder: clone,
      anyRepository: true,
    });
    assert.equal(outcome.kind, 'applied', JSON.stringify(outcome));
    for (const change of agentFiles()) {
      const local = path.join(clone, change.path);
      if (change.status === 'DELETED') assert.equal(fs.existsSync(local), false, `${change.path} deleted`);
      else
        assert.ok(
          fs.readFileSync(local).equals(fs.readFileSync(path.join(sample.dir, change.path))),
          `${change.path} equals the agent's`,
        );
    }
    assert.equal(
      fs.existsSync(path.join(clone, '.openhands-agent-server.log')),
      false,
      'no agent-server file',
    );
  });

  it('a conflict changes nothing; one file can still be accepted alone', async () => {
    const clone = localClone(sample.dir);
    const updated = agentFiles().find((change) => change.status === 'UPDATED' && change.path.endsWith('.ts'));
    assert.ok(updated);
    // the user committed their own version of the same lines
    fs.writeFileSync(path.join(clone, updated.path), 'export const mine = 1;\n');
    git(clone, 'commit', '-qam', 'mine');
    const before = treeOf(clone);
    const head = git(clone, 'rev-parse', 'HEAD');
    const refused = await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
      conversationId: conversation.id,
      folder: clone,
      anyRepository: true,
      anyHead: true,
      skipConflicts: false,
    });
    assert.equal(refused.kind, 'refused', JSON.stringify(refused));
    assert.deepEqual(refused.kind === 'refused' && refused.paths, [updated.path]);
    assert.deepEqual(treeOf(clone), before, 'not one byte changed');
    assert.equal(git(clone, 'status', '--porcelain'), '', 'nothing staged or changed');
    assert.equal(git(clone, 'rev-parse', 'HEAD'), head);
    const added = agentFiles().find((change) => change.status === 'ADDED' && change.path.endsWith('.md'));
    assert.ok(added);
    const accepted = await vscode.commands.executeCommand<ApplyOutcome>('openhands.acceptChangeFile', {
      conversationId: conversation.id,
      folder: clone,
      only: [added.path],
      anyRepository: true,
      anyHead: true,
    });
    assert.equal(accepted.kind, 'applied', JSON.stringify(accepted));
    assert.deepEqual(git(clone, 'status', '--porcelain', '--untracked-files=all').trim(), `?? ${added.path}`);
  });

  it('refuses over uncommitted edits to the same files; stashes them first when asked', async () => {
    const clone = localClone(sample.dir);
    const updated = agentFiles().find((change) => change.status === 'UPDATED' && change.path.endsWith('.ts'));
    assert.ok(updated);
    fs.appendFileSync(path.join(clone, updated.path), '// my unsaved idea\n');
    const before = treeOf(clone);
    const refused = await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
      conversationId: conversation.id,
      folder: clone,
      anyRepository: true,
      stash: false,
    });
    assert.equal(refused.kind, 'refused', JSON.stringify(refused));
    assert.equal(refused.kind === 'refused' && refused.reason, 'dirty');
    assert.deepEqual(treeOf(clone), before, 'the user’s edit untouched');
    const applied = await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
      conversationId: conversation.id,
      folder: clone,
      anyRepository: true,
      stash: true,
    });
    assert.equal(applied.kind, 'applied', JSON.stringify(applied));
    assert.match(git(clone, 'stash', 'list'), /OpenHands/);
    assert.match(git(clone, 'stash', 'show', '-p'), /my unsaved idea/);
  });

  it('saves the whole change as a patch that git applies to the base', async () => {
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-patch-')), 'agent.patch');
    const saved = await vscode.commands.executeCommand<string>('openhands.saveChangesAsPatch', {
      conversationId: conversation.id,
      file: target,
    });
    assert.equal(saved, target);
    const patch = fs.readFileSync(target, 'utf8');
    assert.match(patch, /^diff --git /);
    assert.doesNotMatch(patch, /openhands-agent-server\.log|workspace\/conversations\//);
    const clone = localClone(sample.dir);
    git(clone, 'apply', '--check', target);
  });

  it('refuses a link out of the repository by name, applies the rest only when asked, and warns in a saved patch', async () => {
    // A compromised sandbox: the agent leaves a link that leads out of the repository.
    const link = path.join(sample.dir, 'escape');
    fs.symlinkSync('../../../..', link);
    try {
      const clone = localClone(sample.dir);
      const before = treeOf(clone);
      const refused = await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
        conversationId: conversation.id,
        folder: clone,
        anyRepository: true,
        skipRefused: false,
      });
      assert.equal(refused.kind, 'refused', JSON.stringify(refused));
      assert.equal(refused.kind === 'refused' && refused.reason, 'unsafe');
      assert.deepEqual(refused.kind === 'refused' && refused.paths, ['escape']);
      assert.deepEqual(treeOf(clone), before, 'not one byte changed');
      const applied = await vscode.commands.executeCommand<ApplyOutcome>('openhands.applyChanges', {
        conversationId: conversation.id,
        folder: clone,
        anyRepository: true,
        skipRefused: true,
      });
      assert.equal(applied.kind, 'applied', JSON.stringify(applied));
      assert.equal(fs.existsSync(path.join(clone, 'escape')), false, 'the link was never written');
      assert.ok(fs.existsSync(path.join(clone, 'notes', 'new.md')), 'the other files were');

      const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-patch-')), 'agent.patch');
      await vscode.commands.executeCommand<string>('openhands.saveChangesAsPatch', {
        conversationId: conversation.id,
        file: target,
      });
      const saved = fs.readFileSync(target, 'utf8');
      assert.match(saved, /^# OpenHands: this patch holds changes that Apply/);
      assert.match(saved, /escape: a link to “\.\.\/\.\.\/\.\.\/\.\.”, outside the repository/);
    } finally {
      fs.rmSync(link, { force: true });
    }
  });

  it('lists a modified file whose name holds a space (the agent server cannot: read from the patch)', async () => {
    await agentServer.workspace(conversation.id, { 'with space.txt': 'before\n' }, 'a file with a space');
    await agentServer.workspace(conversation.id, { 'with space.txt': 'after\n' });
    // as agent server 1.34 does, the double cannot list it
    const base = (conversation.conversation_url ?? '').replace(/\/api\/conversations\/[^/]+$/, '');
    const direct = await fetch(`${base}/api/git/changes?path=.`, {
      headers: { 'X-Session-API-Key': conversation.session_api_key ?? '' },
    });
    assert.equal(direct.status, 400, `the server's own list: HTTP ${direct.status}`);
    const state = await t.api.changes.refresh(conversation.id);
    assert.equal(state.kind, 'ready', JSON.stringify(state));
    assert.ok(
      state.kind === 'ready' &&
        state.set.files.some((file) => file.path === 'with space.txt' && file.status === 'UPDATED'),
      `listed: ${JSON.stringify(state.kind === 'ready' && state.set.files)}`,
    );
  });

  it('lists a new file with a non-ASCII name by its name (the agent server quotes it)', async () => {
    await agentServer.workspace(conversation.id, { 'café.md': '# new\n' });
    const base = (conversation.conversation_url ?? '').replace(/\/api\/conversations\/[^/]+$/, '');
    const direct = await fetch(`${base}/api/git/changes?path=.`, {
      headers: { 'X-Session-API-Key': conversation.session_api_key ?? '' },
    });
    const own = (await direct.json()) as { path: string }[];
    assert.ok(
      own.some((change) => change.path.startsWith('"caf')),
      `as agent server 1.34 does, the double names it quoted: ${JSON.stringify(own.slice(0, 3))}`,
    );
    const state = await t.api.changes.refresh(conversation.id);
    assert.ok(
      state.kind === 'ready' &&
        state.set.files.some((file) => file.path === 'café.md' && file.status === 'ADDED'),
      `listed: ${JSON.stringify(state.kind === 'ready' && state.set.files)}`,
    );
    assert.ok(
      state.kind === 'ready' && !state.set.files.some((file) => file.path.startsWith('"')),
      'no quoted name',
    );
  });

  it('lists a non-ASCII name in a repository the server cloned one level down by its name', async () => {
    // what 1.11 does for a conversation on a repository: a clone in the working folder, `<name>/`
    const { dir } = await agentServer.workspace(conversation.id, {});
    const clone = path.join(dir, 'webapp');
    fs.mkdirSync(clone, { recursive: true });
    git(clone, 'init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(clone, 'README.md'), '# webapp\n');
    git(clone, 'add', '-A');
    git(clone, 'commit', '-q', '-m', 'base');
    // its origin, as a clone has: the server diffs against origin/main
    const origin = fs.mkdtempSync(path.join(os.tmpdir(), 'oh-nested-origin-'));
    git(origin, 'init', '-q', '--bare', '-b', 'main');
    git(clone, 'remote', 'add', 'origin', origin);
    git(clone, 'push', '-q', '-u', 'origin', 'main');
    fs.writeFileSync(path.join(clone, 'café.md'), '# new\n');
    fs.writeFileSync(path.join(clone, 'README.md'), '# webapp, edited\n');
    try {
      const base = (conversation.conversation_url ?? '').replace(/\/api\/conversations\/[^/]+$/, '');
      const direct = await fetch(`${base}/api/git/changes?path=.`, {
        headers: { 'X-Session-API-Key': conversation.session_api_key ?? '' },
      });
      const own = (await direct.json()) as { path: string }[];
      assert.ok(
        own.some((change) => change.path.startsWith('webapp/"caf')),
        `as agent server 1.34 does, the double names it quoted after the folder: ${JSON.stringify(own)}`,
      );
      const state = await t.api.changes.refresh(conversation.id);
      assert.ok(state.kind === 'ready', JSON.stringify(state));
      const files = state.set.files.filter((file) => file.path.startsWith('webapp/'));
      assert.deepEqual(
        files.map((file) => `${file.status} ${file.path}`).sort(),
        ['ADDED webapp/café.md', 'UPDATED webapp/README.md'],
        `listed: ${JSON.stringify(state.set.files)}`,
      );
      assert.ok(!state.set.files.some((file) => file.path.includes('"')), 'no quoted name');
    } finally {
      fs.rmSync(clone, { recursive: true, force: true });
      fs.rmSync(origin, { recursive: true, force: true });
    }
  });

  it('the panel shows the files the agent edited relative to its workspace, as the changes list does', async () => {
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const panelApi = t.api.conversationPanels;
    assert.ok(panelApi);
    await eventually(
      () => panelApi.snapshot(conversation.id)?.header.changes,
      (changes) => changes?.state === 'ready' && changes.files.length === agentFiles().length,
      15_000,
    );
    // one edit inside the workspace (of a file the change lists), one outside it
    await agentServer.workspace(conversation.id, { 'src/named.ts': 'export const named = 2;\n' });
    const edit = (id: string, file: string): AgentEvent[] => {
      const call = { tool: 'file_editor', callId: `call-${id}` };
      const action = actionEvent(call, {
        kind: 'FileEditorAction',
        command: 'create',
        path: file,
        file_text: 'x\n',
      });
      const observation = observationEvent(call, `action-${id}`, {
        kind: 'FileEditorObservation',
        command: 'create',
        path: file,
        prev_exist: false,
        old_content: null,
        new_content: 'export const named = 2;\n',
      });
      return [withEnvelope(action, `action-${id}`), withEnvelope(observation, `observation-${id}`)];
    };
    const outside = path.join(os.tmpdir(), 'outside-the-workspace.txt');
    await agentServer.append(conversation.id, [
      ...edit('inside', `${sample.dir}/src/named.ts`),
      ...edit('outside', outside),
    ]);
    const rows = await eventually(
      () => panelApi.snapshot(conversation.id)?.rows ?? [],
      (all) =>
        all.some(
          (row) => row.id === 'action-inside' && row.kind === 'action' && row.edit?.path === 'src/named.ts',
        ),
      15_000,
    );
    const paths = rows.flatMap((row) => (row.kind === 'action' && row.edit ? [row.edit.path] : []));
    assert.ok(paths.includes(outside), `a path outside the workspace stays whole: ${paths.join(', ')}`);
    assert.ok(
      paths.every((shown) => !shown.startsWith(`${sample.dir}/`)),
      `no path inside the workspace shows the sandbox folder: ${paths.join(', ')}`,
    );
    // the changes list (read again after the edit) names it the same way
    await eventually(
      () => panelApi.snapshot(conversation.id)?.header.changes?.files.map((file) => file.path) ?? [],
      (files) => files.includes('src/named.ts'),
      15_000,
    );
  });

  /** A re-read of the open panel's list, and the requests it made about this conversation. */
  async function reread(): Promise<{ asked: number; agent: string[]; state: string }> {
    const id = conversation.id.replace(/-/g, '');
    const names = (request: RecordedRequest) =>
      JSON.stringify(request.query).replace(/-/g, '').includes(id) || request.path.includes(id);
    await server.clearRequests();
    const state = await t.api.changes.refresh(conversation.id);
    const requests = await server.requests();
    return {
      // where is the agent server? (the batch get of this conversation)
      asked: requests.filter((r) => r.path.startsWith('/api/v1/app-conversations') && names(r)).length,
      agent: requests
        .filter((r) => r.path.startsWith(`/__sandboxes/${conversation.sandbox_id}/agent-server/`))
        .map((r) => `${r.method} ${r.path.replace(/^.*\/agent-server/, '')}`),
      state: state.kind,
    };
  }

  /** Opens the panel and waits until it is quiet: its list read, its feed live and holding every event. */
  async function openQuiet(): Promise<void> {
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const stored = (await agentServer.events(conversation.id)).length;
    await eventually(
      () => t.api.conversationPanels?.snapshot(conversation.id)?.header,
      (header) =>
        header?.changes?.state === 'ready' && header.feed === 'live' && header.eventCount === stored,
      15_000,
    );
  }

  it('a re-read of an open panel’s list is one request, straight to the agent server', async () => {
    await openQuiet();
    assert.deepEqual(await reread(), { asked: 0, agent: ['GET /api/git/changes'], state: 'ready' });
  });

  it('after the sandbox comes back with a new key, the re-read finds it and reads the list', async () => {
    await openQuiet();
    // what a pause and a resume leave: the same sandbox, another session key
    await server.patchSandbox(conversation.sandbox_id, { session_api_key: 'session-key-after-the-resume' });
    const after = await reread();
    assert.deepEqual(
      after,
      {
        asked: 1,
        // refused with the old key, the app server asked once, read with the new one (same
        // server: the workspace's folder is known)
        agent: ['GET /api/git/changes', 'GET /api/git/changes'],
        state: 'ready',
      },
      JSON.stringify(after),
    );
    assert.deepEqual(
      t.api.changes
        .latest(conversation.id)
        ?.files.map((file) => file.path)
        .sort(),
      agentFiles()
        .map((change) => change.path)
        .sort(),
    );
    assert.deepEqual(await reread(), { asked: 0, agent: ['GET /api/git/changes'], state: 'ready' });
  });

  it('the panel lists the changes and follows the agent’s next edit without polling', async () => {
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const panelApi = t.api.conversationPanels;
    assert.ok(panelApi);
    const listed = await eventually(
      () => panelApi.snapshot(conversation.id)?.header.changes,
      (changes) => changes?.state === 'ready' && changes.files.length === agentFiles().length,
      15_000,
    );
    assert.ok(listed);
    // the agent writes one more file and says so with a file_editor observation
    await agentServer.workspace(conversation.id, { 'later.txt': 'written later\n' });
    await agentServer.append(conversation.id, [
      observationEvent({ tool: 'file_editor', callId: 'call-later' }, 'action-later', {
        kind: 'FileEditorObservation',
        command: 'create',
        path: `${sample.dir}/later.txt`,
      }),
    ]);
    const followed = await eventually(
      () => panelApi.snapshot(conversation.id)?.header.changes,
      (changes) => Boolean(changes?.files.some((file) => file.path === 'later.txt')),
      15_000,
    );
    assert.ok(followed);
    panelApi.sendFromWebview(conversation.id, {
      type: 'openChange',
      file: { path: 'later.txt', status: 'ADDED' },
    });
    await eventually(
      () => vscode.window.tabGroups.activeTabGroup.activeTab,
      (active) => active?.input instanceof vscode.TabInputTextDiff,
    );
  });
});
