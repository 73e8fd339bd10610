// What a tree row shows and offers: its words, icon, menus (context value), the tooltip's facts, and
// never a secret the sandbox's URLs carry. Times are left out of the descriptions (`time.test.ts`
// covers ages against a fixed clock).
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import {
  conversationTooltip,
  conversationTreeItem,
  loadMoreTreeItem,
  repositoryLabel,
  sandboxContextValue,
  sandboxTreeItem,
} from '../../../src/views/treeItems';
import { conversation, sandbox } from '../state/appRecords';
import { modelFailureOf } from '../../../src/api/agentServer/modelFailure';
import { forgetModelFailures, noteModelFailure } from '../../../src/state/modelFailures';
import { MODEL_FAILURES, withEnvelope } from '../../shared/agentEvents';

const SPEC = 'ghcr.io/openhands/agent-server:4e2ecd8-python';
const VSCODE_URL = 'http://127.0.0.1:8001/?tkn=session-secret&folder=/workspace';

function tooltipText(item: vscode.TreeItem): string {
  const tooltip = item.tooltip;
  return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
}

describe('sandbox rows', () => {
  const running = sandbox('oh-agent-server-4x7kq', {
    created_at: null,
    exposed_urls: [{ name: 'VSCODE', url: VSCODE_URL }],
  });

  it('offer the menus of their status, VS Code when exposed, and none while an action runs', () => {
    assert.equal(sandboxContextValue(running, undefined), 'sandbox.running.vscode');
    assert.equal(
      sandboxContextValue({ ...running, status: 'PAUSED', exposed_urls: [] }, undefined),
      'sandbox.paused',
    );
    assert.equal(
      sandboxContextValue({ ...running, status: 'SHUTTING_DOWN' }, undefined),
      'sandbox.unknown.vscode',
    );
    assert.equal(
      sandboxContextValue(running, { kind: 'pausing', target: 'PAUSED', startedAt: 0 }),
      'sandbox.busy',
    );
  });

  it('say what runs in it, its status, its image, and “last known” while the server is away', () => {
    const item = sandboxTreeItem({ kind: 'sandbox', sandbox: running }, 'Fix the login', undefined, 2, false);
    assert.equal(item.label, 'Fix the login');
    assert.equal(item.id, 'sandbox/oh-agent-server-4x7kq');
    assert.equal(item.description, 'Running · agent-server:4e2ecd8-python');
    assert.equal(item.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.deepEqual(item.accessibilityInformation, {
      label: 'Sandbox Fix the login, Running · agent-server:4e2ecd8-python',
    });
    const stale = sandboxTreeItem({ kind: 'sandbox', sandbox: running }, 'x', undefined, 0, true);
    assert.equal(stale.description, 'Running · no conversation · agent-server:4e2ecd8-python · last known');
    assert.equal(stale.collapsibleState, vscode.TreeItemCollapsibleState.None);
  });

  it('show an action in flight in place of the status, with a spinner', () => {
    const item = sandboxTreeItem(
      { kind: 'sandbox', sandbox: running },
      'x',
      { kind: 'deleting', target: undefined, startedAt: 0 },
      undefined,
      false,
    );
    assert.match(String(item.description), /^Deleting…/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    assert.equal(item.contextValue, 'sandbox.busy');
  });

  it('tell in the tooltip where the sandbox’s URLs point, never the key they carry', () => {
    const item = sandboxTreeItem(
      { kind: 'sandbox', sandbox: { ...running, status_detail: 'health *check* ok' } },
      'A [name]',
      undefined,
      undefined,
      false,
    );
    const text = tooltipText(item);
    assert.ok(!text.includes('session-secret'), text);
    assert.match(text, /- VSCODE: `http:\/\/127\.0\.0\.1:8001\/`/);
    assert.match(text, /\*\*A \\\[name\\\]\*\*/);
    assert.match(text, /Sandbox id: `oh-agent-server-4x7kq`/);
    // the server's detail is text, not markdown
    assert.match(text, /\\\*check\\\*/);
    assert.match(text, new RegExp(`Spec: \`${SPEC.replace(/[.]/g, '\\.')}\``));
    assert.ok(!text.includes('Conversations:'), 'no count when only some conversations are loaded');
  });
});

describe('conversation rows', () => {
  const base = conversation(0xabc, {
    title: 'Fix the login',
    selected_repository: 'acme/app',
    selected_branch: 'main',
    updated_at: null,
    execution_status: 'waiting_for_confirmation',
  });

  it('say the agent’s state, what it works on and where it runs, and open the conversation on click', () => {
    const node = { kind: 'conversation' as const, conversation: base };
    const item = conversationTreeItem(node, false);
    assert.equal(item.label, 'Fix the login');
    assert.equal(item.id, `conversation/${base.id}`);
    assert.equal(item.description, 'waiting for you · acme/app (main) · sandbox running');
    assert.equal(item.contextValue, 'conversation.ok.branch');
    assert.deepEqual(item.command, {
      command: 'openhands.openConversation',
      title: 'Open',
      arguments: [node],
    });
    assert.equal(item.tooltip, undefined, 'the tooltip comes on hover');
  });

  it('say "model failed" and why when the newest run ended on the model’s failure (issue 36), escaped in the tooltip', () => {
    const failed = { ...base, execution_status: 'error' as const, llm_model: 'openai/gpt-*x*' };
    const node = { kind: 'conversation' as const, conversation: failed };
    const failure = modelFailureOf(withEnvelope(MODEL_FAILURES.keyRefused, 'e1'), undefined);
    try {
      assert.equal(
        conversationTreeItem(node, false).description,
        'error · acme/app (main) · sandbox running',
      );
      noteModelFailure(failed.id, failure);
      assert.equal(
        conversationTreeItem(node, false).description,
        'model failed · acme/app (main) · sandbox running',
      );
      const tooltip = tooltipText({ tooltip: conversationTooltip(failed) } as vscode.TreeItem);
      // markdown escaped: the model's name is the server's
      assert.ok(
        tooltip.includes('Model failed: openai/gpt\\-\\*x\\* refused the API key \\(401\\)\\.'),
        tooltip,
      );
      assert.doesNotMatch(tooltip, /sk-proj/);
      // a new run: the live status is no longer error
      assert.equal(
        conversationTreeItem(node, false, 'running').description?.toString().startsWith('working'),
        true,
      );
      noteModelFailure(failed.id, undefined);
      assert.doesNotMatch(
        tooltipText({ tooltip: conversationTooltip(failed) } as vscode.TreeItem),
        /Model failed/,
      );
    } finally {
      forgetModelFailures();
    }
  });

  it('say the agent’s branch and each pull request, and offer the row’s branch and PR commands', () => {
    const withPrs = { ...base, git_provider: 'github' as const, pr_number: [12, 14] };
    const item = conversationTreeItem({ kind: 'conversation' as const, conversation: withPrs }, false);
    assert.equal(item.description, 'waiting for you · acme/app (main) · #12, #14 · sandbox running');
    assert.equal(item.contextValue, 'conversation.ok.branch.pr');
    const tooltip = tooltipText({ tooltip: conversationTooltip(withPrs) } as vscode.TreeItem);
    assert.match(tooltip, /Pull requests: #12, #14/);
    // no repository: nothing to check out, a PR is still named
    const bare = { ...withPrs, selected_repository: null, pr_number: [7] };
    const bareItem = conversationTreeItem({ kind: 'conversation' as const, conversation: bare }, false);
    assert.equal(bareItem.contextValue, 'conversation.ok.pr');
    assert.match(String(bareItem.description), / · #7 · /);
  });

  it('take the live status over the list’s, and have an id of their own under a sandbox', () => {
    const node = {
      kind: 'conversation' as const,
      conversation: { ...base, sandbox_status: 'PAUSED' as const },
      underSandbox: 's1',
    };
    const item = conversationTreeItem(node, true, 'running');
    assert.equal(item.id, `sandbox/s1/conversation/${base.id}`);
    assert.equal(item.description, 'working · acme/app (main) · sandbox paused · last known');
    assert.equal(item.contextValue, 'conversation.sandboxPaused.branch');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'loading~spin');
  });

  it('say the cost the server listed, with the budget, and nothing before the agent called its LLM', () => {
    const metrics = {
      model_name: 'default',
      accumulated_cost: 1.234,
      max_budget_per_task: 5,
      accumulated_token_usage: {
        model: '',
        prompt_tokens: 90_000,
        completion_tokens: 10_000,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
        reasoning_tokens: 0,
        context_window: 200_000,
        per_turn_token: 116_000,
        response_id: '',
      },
    };
    const priced = conversationTreeItem({ kind: 'conversation', conversation: { ...base, metrics } }, false);
    assert.equal(priced.description, 'waiting for you · acme/app (main) · $1.23 of $5.00 · sandbox running');
    assert.match(
      conversationTooltip({ ...base, metrics }).value,
      /Cost: \$1\.23 of \$5\.00 · 100k tokens · context 58 %/,
    );
    // 1.11 lists zeros for a conversation whose agent never ran
    const zeros = {
      ...metrics,
      accumulated_cost: 0,
      max_budget_per_task: null,
      accumulated_token_usage: { ...metrics.accumulated_token_usage, prompt_tokens: 0, completion_tokens: 0 },
    };
    const unpriced = conversationTreeItem(
      { kind: 'conversation', conversation: { ...base, metrics: zeros } },
      false,
    );
    assert.equal(unpriced.description, 'waiting for you · acme/app (main) · sandbox running');
    assert.doesNotMatch(conversationTooltip({ ...base, metrics: zeros }).value, /Cost/);
  });

  it('name the repository with its branch, without, or not at all', () => {
    assert.equal(repositoryLabel(base), 'acme/app (main)');
    assert.equal(repositoryLabel({ ...base, selected_branch: ' ' }), 'acme/app');
    assert.equal(repositoryLabel({ ...base, selected_repository: '  ' }), undefined);
  });

  it('tell the facts in the tooltip: id, agent, repository, model and cost', () => {
    const text = conversationTooltip({
      ...base,
      llm_model: 'claude-sonnet',
      metrics: {
        model_name: 'claude-sonnet',
        accumulated_cost: 1.234,
        max_budget_per_task: null,
        accumulated_token_usage: null,
      },
    }).value;
    assert.match(text, new RegExp(`Id: \`${base.id}\``));
    assert.match(text, /Agent: waiting for you · Sandbox: RUNNING/);
    assert.match(text, /Repository: `acme\/app` @ `main`/);
    assert.match(text, /Model: `claude-sonnet`/);
    assert.match(text, /Cost: \$1\.23 · 0 tokens/);
    assert.match(text, /Updated: —/);
  });
});

describe('the Load more row', () => {
  it('runs Load more', () => {
    const item = loadMoreTreeItem();
    assert.equal(item.label, 'Load more…');
    assert.equal(item.command?.command, 'openhands.loadMoreConversations');
    assert.equal(item.contextValue, 'loadMore');
  });
});
