// The agent's branch and pull request in a real VS Code against the test server: a conversation the
// agent opened PR #12 in (on a GitHub Enterprise host the server's provider token names) says the
// branch and `#12` in its row and its panel; Open Pull Request, from the palette and from the panel's
// header, opens that PR's page. The extension's opener records what it would open: no browser.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { OpenHandsNode } from '../../src/views/nodes';
import { eventually } from '../shared/eventually';
import { closePanels, panels, quietConversation } from './conversations';
import { testServerUrl } from './env';
import { useFreshExtension } from './extensionApi';
import { server } from './serverControl';

const BRANCH = 'openhands/fix-login';
const PR_URL = 'https://github.acme.dev/acme/app/pull/12';

describe('the agent’s branch and pull requests in a real VS Code', () => {
  const t = useFreshExtension();
  afterEach(() => closePanels(t.api));

  async function conversationWithPullRequest() {
    const { id } = quietConversation(t.api);
    // GitHub Enterprise: the settings' provider_tokens_set names its host
    const stored = await fetch(`${testServerUrl()}/api/add-git-providers`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        provider_tokens: { github: { token: 'ghp-enterprise-token', host: 'github.acme.dev' } },
      }),
    });
    assert.ok(stored.ok);
    // what 1.11 stores once the agent's create_pr tool opened PR #12
    await server.patchConversation(id, {
      selected_repository: 'acme/app',
      selected_branch: BRANCH,
      git_provider: 'github',
      pr_number: [12],
    });
    await t.api.store.refresh();
    const conversation = t.api.store.findConversation(id);
    assert.ok(conversation);
    return conversation;
  }

  it('the row says the branch and #12; Open Pull Request opens the PR on the server’s host', async () => {
    const conversation = await conversationWithPullRequest();
    const node: OpenHandsNode = { kind: 'conversation', conversation };
    const item = t.api.conversationsProvider.getTreeItem(node);
    assert.match(String(item.description), new RegExp(` · acme/app \\(${BRANCH}\\) · #12 · `));
    assert.match(item.contextValue ?? '', /^conversation\.ok\.branch\.pr$/);
    const opened = t.api.opener.opened;
    assert.ok(opened, 'the opener records in test mode');
    opened.length = 0;
    await vscode.commands.executeCommand('openhands.openPullRequest', conversation.id);
    assert.deepEqual(opened, [PR_URL]);
    // the token never left the extension's memory of the settings
    assert.doesNotMatch(JSON.stringify(item), /ghp-enterprise-token/);
  });

  it('the panel’s header names the branch and links #12; the link and the header button open it', async () => {
    const conversation = await conversationWithPullRequest();
    await vscode.commands.executeCommand('openhands.openConversation', conversation.id);
    const snapshot = await eventually(
      () => panels(t.api).snapshot(conversation.id),
      (shown) => shown?.header.git?.pullRequests[0]?.url === PR_URL,
      10_000,
    );
    assert.deepEqual(snapshot?.header.git, {
      repository: 'acme/app',
      branch: BRANCH,
      pullRequests: [{ number: 12, url: PR_URL }],
    });
    assert.doesNotMatch(JSON.stringify(snapshot?.header), /ghp-enterprise-token/);
    const opened = t.api.opener.opened ?? [];
    opened.length = 0;
    // a click on #12 (the page's link path), then the header's Open Pull Request
    assert.ok(panels(t.api).sendFromWebview(conversation.id, { type: 'openLink', url: PR_URL }));
    assert.ok(
      panels(t.api).sendFromWebview(conversation.id, { type: 'branchAction', action: 'openPullRequest' }),
    );
    await eventually(
      () => [...opened],
      (urls) => urls.length === 2,
    );
    assert.deepEqual(opened, [PR_URL, PR_URL]);
  });
});
