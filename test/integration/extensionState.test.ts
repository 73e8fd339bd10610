// Extension state that must not go wrong (issue 9, items 18–25): request loops, settings changes,
// late answers, overlapping waits, the status bar, the log level, menus and listeners.
import * as assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { SandboxInfo } from '../../src/api';
import { SecretsManager } from '../../src/core/secretsManager';
import { setSetting, sleep, useFreshExtension } from './extensionApi';
import { eventually } from '../shared/eventually';
import { openHandsExtension } from './manifest';
import { server } from './serverControl';

const SPECS_PATH = '/api/v1/sandbox-specs/search';

describe('extension state (issue 9, items 18–25)', () => {
  const t = useFreshExtension();

  const withStatus = (status: string): SandboxInfo => {
    const sandbox = t.api.store.sandboxes.find((s) => s.status === status);
    assert.ok(sandbox, `the seed has a ${status} sandbox`);
    return sandbox;
  };

  /** The status the server reports now, asked straight from it (not through the extension). */
  async function serverStatus(id: string): Promise<string | undefined> {
    const url = t.api.connection.config.serverUrl;
    const reply = (await (await fetch(`${url}/api/v1/sandboxes/search?limit=100`)).json()) as {
      items: SandboxInfo[];
    };
    return reply.items.find((sandbox) => sandbox.id === id)?.status;
  }

  async function hideViews(): Promise<void> {
    await vscode.commands.executeCommand('workbench.view.explorer');
    await eventually(
      () => t.api.scheduler.anyViewVisible,
      (visible) => !visible,
    );
  }

  it('18: a failing read of the sandbox specs is not repeated in a loop', async () => {
    await server.addFault({ kind: 'status', status: 503, match: { path: SPECS_PATH } });
    try {
      await t.api.connection.rebuild(); // forgets the specs
      await server.clearRequests();
      // Start Sandbox… reads them (the only reader now that they have no view) and says it failed
      assert.equal(await vscode.commands.executeCommand('openhands.startSandbox'), undefined);
      assert.ok(t.api.specs.lastError, 'the read failed');
      await sleep(1500);
      const reads = (await server.requests()).filter((r) => r.path === SPECS_PATH).length;
      assert.equal(reads, 1, `${reads} reads of the specs in 1.5 s after the failure`);
      // Refresh reads them again, and recovers
      await server.clearFaults();
      await vscode.commands.executeCommand('openhands.refresh');
      assert.equal(t.api.specs.lastError, undefined);
      assert.ok(t.api.specs.specs.length > 0);
    } finally {
      await server.clearFaults();
      await hideViews();
    }
  });

  it('19: changing httpLogLevel keeps the trees, the client and an in-flight pause wait', async () => {
    const sandbox = withStatus('RUNNING');
    const rows = t.api.store.sandboxes.length;
    const client = t.api.connection.client;
    try {
      const pausing = vscode.commands.executeCommand<boolean>('openhands.pauseSandbox', sandbox.id);
      await eventually(
        () => t.api.store.transitions.get(sandbox.id)?.kind,
        (kind) => kind === 'pausing',
      );
      await setSetting('httpLogLevel', 'bodies');
      await eventually(
        () => t.api.connection.config.httpLogLevel,
        (level) => level === 'bodies',
      );
      await sleep(100); // a rebuild would have fired by now
      assert.equal(t.api.store.sandboxes.length, rows, 'the sandboxes stay listed');
      assert.equal(t.api.connection.client, client, 'the same client: nothing about the server changed');
      assert.equal(t.api.store.transitions.get(sandbox.id)?.kind, 'pausing', 'still "Pausing…"');
      assert.equal(await pausing, true);
      assert.equal(await serverStatus(sandbox.id), 'PAUSED', 'the wait ended because the sandbox paused');
    } finally {
      await setSetting('httpLogLevel', undefined);
    }
  });

  it('20: "Load more" does not append a page of the previous filter', async () => {
    await setSetting('pageSize', 5);
    await t.api.connection.rebuild();
    await t.api.store.refresh();
    assert.notEqual(t.api.store.conversationsNextPage, null, 'more than one page');
    const title = t.api.store.conversations[0]?.title;
    assert.ok(title, 'the newest conversation has a title');
    // the next page answers slowly; meanwhile the user filters by the newest title
    await server.addFault({
      kind: 'latency',
      ms: 1000,
      times: 1,
      match: { path: '/api/v1/app-conversations/search' },
    });
    const loadingMore = t.api.store.loadMoreConversations();
    await sleep(100);
    await t.api.store.setTitleFilter(title);
    await loadingMore;
    const shown = t.api.store.conversations.map((c) => c.title ?? '');
    assert.ok(shown.length > 0);
    assert.deepEqual(
      shown.filter((shownTitle) => !shownTitle.toLowerCase().includes(title.toLowerCase())),
      [],
      'only conversations matching the filter',
    );
  });

  it('21: a pause wait that outlives its pause does not end a newer "Resuming…"', async () => {
    const sandbox = withStatus('RUNNING');
    // the pause wait's first look is slow: it answers after the pause landed and a resume began
    await server.addFault({
      kind: 'latency',
      ms: 3000,
      times: 1,
      match: { method: 'GET', path: '/api/v1/sandboxes' },
    });
    // the resume reaches the server late, so the sandbox still reads PAUSED meanwhile
    await server.addFault({
      kind: 'latency',
      ms: 3000,
      times: 1,
      match: { method: 'POST', pathRegex: '/resume$' },
    });
    const pausing = vscode.commands.executeCommand<boolean>('openhands.pauseSandbox', sandbox.id);
    // a refresh sees the pause land and ends "Pausing…" while the pause wait still waits
    await eventually(
      async () => {
        await t.api.store.refresh();
        return t.api.store.transitions.has(sandbox.id);
      },
      (busy) => !busy,
    );
    assert.equal(t.api.store.findSandbox(sandbox.id)?.status, 'PAUSED');
    const resuming = vscode.commands.executeCommand<boolean>('openhands.resumeSandbox', sandbox.id);
    await eventually(
      () => t.api.store.transitions.get(sandbox.id)?.kind,
      (kind) => kind === 'resuming',
    );
    assert.equal(await pausing, true);
    assert.equal(t.api.store.transitions.get(sandbox.id)?.kind, 'resuming', 'still "Resuming…"');
    assert.equal(await resuming, true);
    assert.equal(await serverStatus(sandbox.id), 'RUNNING', 'the resume wait ended when it was running');
  });

  it('22: with no OpenHands view visible the status bar does not say "Connecting…"', async () => {
    await hideViews();
    try {
      // as at activation: a server is configured and nothing is loaded yet
      await t.api.connection.rebuild();
      await sleep(500);
      assert.doesNotMatch(t.api.statusBar.text, /sync~spin/);
      assert.doesNotMatch(t.api.statusBar.tooltip, /Connecting/);
      // opening a view loads and shows the counts
      await vscode.commands.executeCommand('openhands.sandboxes.focus');
      await eventually(
        () => t.api.statusBar.text,
        (text) => /running/.test(text),
      );
    } finally {
      await hideViews();
    }
  });

  it('23: httpLogLevel "bodies" writes the bodies at a level the Output channel shows by default', async () => {
    assert.equal(t.api.log.channel.logLevel, vscode.LogLevel.Info, 'the channel is at its default level');
    const file = vscode.Uri.joinPath(t.api.logUri, 'OpenHands.log').fsPath;
    const before = (await readFile(file, 'utf8').catch(() => '')).length;
    try {
      await setSetting('httpLogLevel', 'bodies');
      await eventually(
        () => t.api.connection.config.httpLogLevel,
        (level) => level === 'bodies',
      );
      await t.api.store.refresh();
      const id = t.api.store.sandboxes[0]?.id;
      assert.ok(id);
      await eventually(
        async () => (await readFile(file, 'utf8')).slice(before),
        (written) => written.includes(`"id":"${id}"`),
        4000,
      );
    } finally {
      await setSetting('httpLogLevel', undefined);
    }
  });

  it('24: conversation and sandbox menu entries show only in the OpenHands views', () => {
    const json = openHandsExtension().packageJSON as {
      contributes: { menus: Record<string, { command: string; when?: string }[]> };
    };
    const entries = json.contributes.menus['view/item/context'] ?? [];
    assert.ok(entries.length > 0);
    const unscoped = entries.filter(
      (entry) => !/^view (== openhands\.\w+|=~ \/\^openhands\\\.)/.test(entry.when ?? ''),
    );
    assert.deepEqual(
      unscoped.map((entry) => `${entry.command} when ${entry.when}`),
      [],
      'every entry starts with a view clause naming an OpenHands view',
    );
  });

  it('25: the secrets manager lets go of its Secret Storage listener when disposed', async () => {
    const emitter = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
    let listening = 0;
    const values = new Map<string, string>();
    const secrets: vscode.SecretStorage = {
      get: async (key) => values.get(key),
      store: async (key, value) => {
        values.set(key, value);
        emitter.fire({ key });
      },
      delete: async (key) => {
        values.delete(key);
        emitter.fire({ key });
      },
      onDidChange: (listener, thisArg, disposables) => {
        listening++;
        const subscription = emitter.event(listener, thisArg, disposables);
        return { dispose: () => (listening--, subscription.dispose()) };
      },
    };
    const manager = new SecretsManager(secrets);
    const heard: string[] = [];
    manager.apiKeys.onDidChange((url) => heard.push(url));
    await manager.apiKeys.set('http://listener.invalid', 'k');
    assert.deepEqual(heard, ['http://listener.invalid']);
    manager.dispose();
    assert.equal(listening, 0, 'no listener left on Secret Storage');
    emitter.dispose();
  });

  it('25: a new conversation lets go of its cancellation listener when it is done', async () => {
    const window = vscode.window as { withProgress: typeof vscode.window.withProgress };
    const original = window.withProgress;
    let listening = 0;
    // count the listeners on the progress's cancellation token
    window.withProgress = (options, task) =>
      original(options, (progress, token) =>
        task(progress, {
          get isCancellationRequested() {
            return token.isCancellationRequested;
          },
          onCancellationRequested: (listener, thisArg, disposables) => {
            listening++;
            const subscription = token.onCancellationRequested(listener, thisArg, disposables);
            return { dispose: () => (listening--, subscription.dispose()) };
          },
        }),
      );
    try {
      const id = await vscode.commands.executeCommand<string | undefined>('openhands.newConversation', {
        message: 'listener check',
        repository: null,
        sandboxId: null,
      });
      assert.ok(id, 'the conversation started');
      assert.equal(listening, 0, 'no listener left on the cancellation token');
    } finally {
      window.withProgress = original;
    }
  });
});
