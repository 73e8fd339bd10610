// The panel's header built from plain facts, no feed, no page and no VS Code: what the user reads
// in it (title, statuses, why the feed is not live), what waits for approval, and Continue after a
// reject, each from the facts that decide it.
import assert from 'node:assert/strict';
import { AppConversationSchema, type AppConversation } from '../../../../../src/api';
import type { FeedState } from '../../../../../src/api/agentServer/feedState';
import { feedState } from './feedFixture';
import {
  feedDetail,
  panelHeader,
  type HeaderFacts,
} from '../../../../../src/webviews/conversation/host/headerModel';
import { Transcript } from '../../../../../src/webviews/conversation/host/rows/transcript';
import { statsFromUpdate } from '../../../../../src/api/usage/usageStats';
import { forgetAskedWords, rememberAsked } from '../../../../../src/state/askedWords';
import { conversationTitle } from '../../../../../src/state/names';
import {
  executionStatus,
  numberedEvents,
  statsValue,
  terminalAction,
  userMessage,
} from '../../../../shared/agentEvents';

const CONVERSATION_ID = 'abcdef0123456789abcdef0123456789';
const NOW = 1_800_000_000_000;

function conversation(fields: Record<string, unknown>): AppConversation {
  return AppConversationSchema.parse({ id: CONVERSATION_ID, sandbox_id: 'sandbox-1', ...fields });
}

function facts(overrides: Partial<HeaderFacts> = {}): HeaderFacts {
  return {
    conversationId: CONVERSATION_ID,
    feed: feedState(),
    conversation: undefined,
    eventCount: 0,
    rows: new Transcript(),
    outbox: [],
    busy: null,
    rejected: false,
    now: NOW,
    ...overrides,
  };
}

describe('conversation panel header model', () => {
  it('names the conversation as its row does: its title, else what the user asked, else by its id', () => {
    assert.equal(panelHeader(facts()).title, 'Conversation abcde');
    const titled = conversation({ title: 'Fix the date parser', sandbox_status: 'RUNNING' });
    assert.equal(panelHeader(facts({ conversation: titled })).title, 'Fix the date parser');
    const untitled = conversation({ title: '' });
    assert.equal(panelHeader(facts({ conversation: untitled })).title, conversationTitle(untitled));
    assert.match(panelHeader(facts({ conversation: untitled })).title, /^Conversation abcde/);
    // the server's placeholder is no title: the first words asked name it, in the header as in the row
    const placeholder = conversation({ title: 'Conversation abcde' });
    rememberAsked(CONVERSATION_ID, 'Make the parser accept ISO weeks\nand more details');
    try {
      assert.equal(
        panelHeader(facts({ conversation: placeholder })).title,
        'Make the parser accept ISO weeks',
      );
      assert.equal(panelHeader(facts()).title, 'Make the parser accept ISO weeks');
    } finally {
      forgetAskedWords();
    }
  });

  it("takes the feed's fresher status and model over the app server's, and the app server's when the feed has none", () => {
    const app = conversation({ execution_status: 'idle', llm_model: 'app-model', sandbox_status: 'RUNNING' });
    const fromApp = panelHeader(facts({ conversation: app }));
    assert.equal(fromApp.executionStatus, 'idle');
    assert.equal(fromApp.model, 'app-model');
    const fromFeed = panelHeader(
      facts({ conversation: app, feed: feedState({ executionStatus: 'running', model: 'feed-model' }) }),
    );
    assert.equal(fromFeed.executionStatus, 'running');
    assert.equal(fromFeed.model, 'feed-model');
    assert.equal(panelHeader(facts()).executionStatus, null, 'unknown');
  });

  it('offers Resume for a paused, missing or failed sandbox only', () => {
    const canResume = (status: string) =>
      panelHeader(facts({ conversation: conversation({ sandbox_status: status }) })).canResume;
    assert.deepEqual(['PAUSED', 'MISSING', 'ERROR', 'RUNNING', 'STARTING'].map(canResume), [
      true,
      true,
      true,
      false,
      false,
    ]);
  });

  it('counts down to the next reconnect from now, never below zero', () => {
    assert.equal(panelHeader(facts()).retryInMs, null);
    const reconnecting = feedState({ status: 'reconnecting', retryAt: NOW + 4000, detail: 'socket closed' });
    assert.equal(panelHeader(facts({ feed: reconnecting })).retryInMs, 4000);
    assert.equal(panelHeader(facts({ feed: reconnecting, now: NOW + 9000 })).retryInMs, 0);
  });

  it('lists the actions the agent waits to run, with their arguments but the kind, only while it waits', () => {
    const event = numberedEvents('e');
    const rows = new Transcript();
    rows.append([
      event(userMessage('Clean the build folder')),
      event(terminalAction('rm -rf build', 'call-1', { security_risk: 'HIGH', summary: 'Run rm -rf build' })),
    ]);
    const running = panelHeader(facts({ rows, feed: feedState({ executionStatus: 'running' }) }));
    assert.deepEqual(running.controls.pendingActions, []);
    rows.append([event(executionStatus('waiting_for_confirmation'))]);
    const waiting = panelHeader(
      facts({ rows, feed: feedState({ executionStatus: 'waiting_for_confirmation' }) }),
    );
    assert.equal(waiting.controls.pendingActions.length, 1);
    const [pending] = waiting.controls.pendingActions;
    assert.equal(pending?.tool, 'terminal');
    assert.equal(pending?.summary, 'Run rm -rf build');
    assert.equal(pending?.risk, 'HIGH');
    assert.match(pending?.detail ?? '', /"command": "rm -rf build"/);
    assert.doesNotMatch(pending?.detail ?? '', /TerminalAction/);
  });

  it('offers Continue after a reject until the agent runs, and shows the control under way', () => {
    const idle = panelHeader(
      facts({ rejected: true, busy: 'continue', feed: feedState({ executionStatus: 'idle' }) }),
    );
    assert.equal(idle.controls.rejected, true);
    assert.equal(idle.controls.busy, 'continue');
    const running = panelHeader(facts({ rejected: true, feed: feedState({ executionStatus: 'running' }) }));
    assert.equal(running.controls.rejected, false);
  });

  it('carries the confirmation policy, the messages on their way and the changed files as given', () => {
    const outbox = [{ id: 'out-1', text: 'hi', images: 0, state: 'sending' as const, reason: null }];
    const changes = {
      state: 'ready' as const,
      files: [{ path: 'a.ts', status: 'ADDED' as const }],
      message: null,
    };
    const header = panelHeader(
      facts({ outbox, changes, feed: feedState({ confirmationPolicy: 'AlwaysConfirm' }), eventCount: 42 }),
    );
    assert.equal(header.controls.confirmationPolicy, 'AlwaysConfirm');
    assert.deepEqual(header.controls.outbox, outbox);
    assert.deepEqual(header.changes, changes);
    assert.equal(header.eventCount, 42);
    assert.equal('changes' in panelHeader(facts()), false, 'no changes source: no list');
    assert.equal(panelHeader(facts()).browser, null, 'not browsing');
  });

  it('says why the feed is not live in words a user knows, by the kind of failure', () => {
    assert.equal(feedDetail(feedState()), null);
    assert.equal(
      feedDetail(feedState({ status: 'offline', detail: 'The sandbox is paused' })),
      'The sandbox is paused',
    );
    assert.equal(
      feedDetail(feedState({ status: 'reconnecting', detail: 'ws closed 1006', silentMs: 15_200 })),
      'No word from the sandbox for 15 s; reconnecting',
    );
    const failed = (failure: FeedState['failure']) =>
      feedDetail(feedState({ status: 'failed', detail: 'GET /api/conversations/x: 401', failure }));
    assert.equal(failed('unauthorized'), 'The sandbox did not accept its key');
    assert.equal(failed('network'), 'The sandbox cannot be reached');
    assert.equal(failed(undefined), 'GET /api/conversations/x: 401');
    assert.equal(
      failed('invalid_response'),
      'The sandbox sent something unexpected (the log has the details)',
    );
  });

  it('shows the live usage from the feed over the app server’s list, and the list’s until the first update', () => {
    const listed = conversation({
      metrics: {
        model_name: 'default',
        accumulated_cost: 1.5,
        max_budget_per_task: 5,
        accumulated_token_usage: { prompt_tokens: 90_000, completion_tokens: 10_000 },
      },
    });
    const fromList = panelHeader(facts({ conversation: listed })).usage;
    assert.equal(fromList?.summary, '$1.50 of $5.00 · 100k tokens');
    assert.equal(fromList?.source, 'list');
    const usage = statsFromUpdate(
      statsValue({
        agent: {
          cost: 4.1,
          budget: 5,
          prompt: 200_000,
          completion: 15_000,
          contextWindow: 200_000,
          perTurn: 116_000,
        },
      }),
    );
    const live = panelHeader(facts({ conversation: listed, feed: feedState({ usage }) })).usage;
    assert.equal(live?.summary, '$4.10 of $5.00 · 215k tokens · context 58 %');
    assert.equal(live?.source, 'live');
    assert.equal(live?.contextPercent, 58);
    assert.equal(live?.warning, '82 % of the budget ($5.00) used');
    assert.equal(live?.breakdown[0]?.value, '$4.10 of $5.00');
    assert.equal(panelHeader(facts()).usage, null, 'nothing known: no line');
  });
});
