// The transcript the panel shows, built from the agent server's events as 1.34 sends them (frames
// from the reference's live run): pairing, order, clipping, unknown kinds, history read backwards.
import { IMAGE_HEAD_CHARS } from '../../../../../../src/api/agentServer/eventLog';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../../../../../../src/api';
import { compactDiff } from '../../../../../../src/webviews/conversation/host/rows/lineDiff';
import { DISPLAY_LIMITS } from '../../../../../../src/webviews/conversation/host/rows/textPieces';
import { Transcript } from '../../../../../../src/webviews/conversation/host/rows/transcript';
import { oversizedEvent } from '../../../../../../src/api/agentServer/oversizedEvent';
import {
  agentMessage,
  numberedEvents,
  terminalAction,
  terminalObservation,
  userMessage,
} from '../../../../../shared/agentEvents';
import { FIXTURES } from '../../../../../shared/repository';

const numbered = numberedEvents();
function event(kind: string, fields: Record<string, unknown>, source = 'agent'): AgentEvent {
  return numbered({ source, ...fields, kind });
}

let toolCalls = 0;
function terminalPair(command: string, output: string, exitCode: number): [AgentEvent, AgentEvent] {
  const callId = `call-${++toolCalls}`;
  const action = numbered(
    terminalAction(command, callId, {
      thought: [{ type: 'text', text: 'Let me look.' }],
      security_risk: 'LOW',
      summary: `terminal: ${command}`,
    }),
  );
  return [action, numbered(terminalObservation(command, output, exitCode, { callId, actionId: action.id }))];
}

describe('conversation transcript', () => {
  it('pairs a terminal action with its observation: command, output, exit code, failure', () => {
    const transcript = new Transcript();
    const [ok, okResult] = terminalPair('echo hi', 'hi', 0);
    const [bad, badResult] = terminalPair('false', '', 3);
    transcript.append([ok, bad]);
    const change = transcript.append([okResult, badResult]);
    assert.equal(transcript.size, 2, 'an action and its observation are one row');
    const [first, second] = transcript.all;
    assert.ok(first?.kind === 'action' && second?.kind === 'action');
    assert.deepEqual(first.terminal, { command: 'echo hi', output: 'hi', exitCode: 0 });
    assert.equal(first.state, 'done');
    assert.equal(first.thought, 'Let me look.');
    assert.equal(second.state, 'failed');
    assert.equal(second.terminal?.exitCode, 3);
    assert.deepEqual(
      change.end.map((row) => row.id),
      [ok.id, bad.id],
      'the rows change in place',
    );
  });

  it('keeps storage order, never timestamp order', () => {
    const transcript = new Transcript();
    const late = numbered(userMessage('first'));
    const early = numbered(agentMessage('second'));
    early.timestamp = '2000-01-01T00:00:00';
    transcript.append([late, early]);
    assert.deepEqual(
      transcript.all.map((row) => row.kind === 'message' && row.markdown),
      ['first', 'second'],
    );
  });

  it('shows a finish as the agent message, a rejection, an agent error by tool call, notices and unknown kinds', () => {
    const transcript = new Transcript();
    const finish = event('ActionEvent', {
      action: { message: 'All **done**.', kind: 'FinishAction' },
      tool_name: 'finish',
      tool_call_id: 'f1',
      security_risk: 'UNKNOWN',
    });
    const [rejected] = terminalPair('rm -rf /', '', 0);
    const reject = event(
      'UserRejectObservation',
      {
        tool_name: 'terminal',
        tool_call_id: rejected['tool_call_id'],
        rejection_reason: 'no',
        rejection_source: 'user',
        action_id: rejected.id,
      },
      'environment',
    );
    const broken = event('ActionEvent', {
      tool_name: 'file_editor',
      tool_call_id: 'broken-call',
      security_risk: 'UNKNOWN',
    });
    const error = event('AgentErrorEvent', {
      tool_name: 'file_editor',
      tool_call_id: 'broken-call',
      error: 'bad args',
    });
    const conversationError = event(
      'ConversationErrorEvent',
      { code: 'MaxIterationsReached', detail: 'limit 500' },
      'environment',
    );
    const future = event('FutureEvent', { note: 'from a newer server' }, 'environment');
    const status = event(
      'ConversationStateUpdateEvent',
      { key: 'execution_status', value: 'running' },
      'environment',
    );
    transcript.append([
      finish,
      rejected,
      reject,
      broken,
      error,
      conversationError,
      event('PauseEvent', {}, 'user'),
      future,
      status,
    ]);
    const rows = transcript.all;
    assert.deepEqual(
      rows.map((row) => row.kind),
      ['message', 'action', 'action', 'notice', 'notice', 'generic'],
    );
    assert.ok(
      rows[0]?.kind === 'message' && rows[0].role === 'agent' && rows[0].markdown === 'All **done**.',
    );
    assert.ok(rows[1]?.kind === 'action' && rows[1].state === 'rejected' && rows[1].result === 'no');
    assert.ok(rows[2]?.kind === 'action' && rows[2].state === 'failed' && rows[2].result === 'bad args');
    assert.ok(
      rows[3]?.kind === 'notice' &&
        rows[3].level === 'error' &&
        rows[3].detail === 'MaxIterationsReached: limit 500',
    );
    assert.ok(
      rows[5]?.kind === 'generic' &&
        rows[5].eventKind === 'FutureEvent' &&
        rows[5].summary === 'from a newer server',
    );
  });

  it('turns a file edit into a compact diff', () => {
    const transcript = new Transcript();
    const before = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const after = before.replace('line 25\n', 'line twenty-five\n');
    const action = event('ActionEvent', {
      action: { command: 'str_replace', path: '/w/a.py', kind: 'FileEditorAction' },
      tool_name: 'file_editor',
      tool_call_id: 'c',
      security_risk: 'LOW',
    });
    const observation = event(
      'ObservationEvent',
      {
        tool_name: 'file_editor',
        tool_call_id: 'c',
        action_id: action.id,
        observation: {
          content: [],
          is_error: false,
          command: 'str_replace',
          path: '/w/a.py',
          prev_exist: true,
          old_content: before,
          new_content: after,
          kind: 'FileEditorObservation',
        },
      },
      'environment',
    );
    transcript.append([action, observation]);
    const row = transcript.all[0];
    assert.ok(row?.kind === 'action' && row.edit);
    assert.equal(row.edit.added, 1);
    assert.equal(row.edit.removed, 1);
    assert.deepEqual(
      row.edit.lines.filter((line) => line.op !== ' ').map((line) => `${line.op}${line.text}`),
      ['…22 unchanged lines', '-line 25', '+line twenty-five', '…21 unchanged lines'],
    );
  });

  it('clips huge output and gives it whole on expand', () => {
    const transcript = new Transcript();
    const big = 'x'.repeat(DISPLAY_LIMITS.output * 3);
    const [action, observation] = terminalPair('cat big', big, 0);
    transcript.append([action, observation]);
    const row = transcript.all[0];
    assert.ok(row?.kind === 'action');
    assert.equal(row.terminal?.output?.length, DISPLAY_LIMITS.output);
    assert.deepEqual(row.terminal?.outputClip, { fullLength: big.length });
    const whole = transcript.expand(action.id);
    assert.ok(whole?.kind === 'action');
    assert.equal(whole.terminal?.output, big);
  });

  it('joins an observation read before its action (history read backwards)', () => {
    const transcript = new Transcript();
    const [action, observation] = terminalPair('ls', 'a b', 0);
    const newest = transcript.append([observation]);
    assert.equal(newest.end[0]?.id, observation.id, 'the observation shows on its own first');
    const older = transcript.prepend([action]);
    assert.deepEqual(older.removed, [observation.id]);
    assert.equal(older.start[0]?.id, action.id);
    assert.equal(transcript.size, 1);
    const row = transcript.all[0];
    assert.ok(row?.kind === 'action' && row.terminal?.output === 'a b' && row.state === 'done');
  });

  it('joins an agent error read before its action (history read backwards)', () => {
    const transcript = new Transcript();
    const broken = event('ActionEvent', {
      tool_name: 'file_editor',
      tool_call_id: 'late-call',
      security_risk: 'UNKNOWN',
    });
    const error = event('AgentErrorEvent', {
      tool_name: 'file_editor',
      tool_call_id: 'late-call',
      error: 'Error validating args',
    });
    // the error is on the newest page, its action on the older one
    transcript.append([error]);
    const older = transcript.prepend([broken]);
    assert.deepEqual(older.removed, [error.id]);
    assert.equal(older.start[0]?.id, broken.id);
    assert.equal(transcript.size, 1, 'one row, not a notice beside an action that runs for ever');
    const row = transcript.all[0];
    assert.ok(row?.kind === 'action' && row.state === 'failed' && row.result === 'Error validating args');
  });

  it('shows the actions the agent waits on as awaiting approval, and takes it back when it goes on', () => {
    const transcript = new Transcript();
    const [done, doneResult] = terminalPair('ls', 'a b', 0);
    const [waiting, waitingResult] = terminalPair('rm -rf build', '', 0);
    const status = (value: string) =>
      event('ConversationStateUpdateEvent', { key: 'execution_status', value }, 'environment');
    transcript.append([done, doneResult, status('running'), waiting]);
    const stateOfLast = () => {
      const last = transcript.all.at(-1);
      return last?.kind === 'action' ? last.state : undefined;
    };
    assert.equal(stateOfLast(), 'pending');
    const change = transcript.append([status('waiting_for_confirmation')]);
    assert.deepEqual(
      change.end.map((row) => [row.id, row.kind === 'action' && row.state]),
      [[waiting.id, 'awaiting']],
      'only the action without a result waits; the row is sent again',
    );
    const approved = transcript.append([status('running')]);
    assert.deepEqual(
      approved.end.map((row) => [row.id, row.kind === 'action' && row.state]),
      [[waiting.id, 'pending']],
    );
    transcript.append([waitingResult]);
    assert.equal(stateOfLast(), 'done');
    // a status read back with older history says nothing about now
    const older = new Transcript();
    older.append([waiting]);
    older.prepend([status('waiting_for_confirmation')]);
    assert.equal(older.all[0]?.kind === 'action' && older.all[0]?.state, 'pending');
  });

  it('says what an event too large to read was, and why it is not shown', () => {
    const skimmed = (kind: string, source: string, fields: Record<string, unknown> = {}): AgentEvent => ({
      id: `${kind}-${source}`,
      timestamp: '2026-11-23T19:49:50.000001',
      source,
      kind,
      ...fields,
    });
    const rows = new Transcript().append([
      oversizedEvent(skimmed('MessageEvent', 'agent'), 40 * 1024 * 1024, 32 * 1024 * 1024),
      oversizedEvent(
        skimmed('ActionEvent', 'agent', { action: { kind: 'BrowserNavigateAction' } }),
        undefined,
        32 * 1024 * 1024,
      ),
      oversizedEvent(skimmed('NewKindEvent', 'environment'), 33 * 1024 * 1024, 32 * 1024 * 1024),
    ]).end;
    const open = 'Open in Browser, at the top of this panel, shows the conversation in OpenHands.';
    assert.deepEqual(
      rows.map((row) =>
        row.kind === 'notice' ? [row.level, row.title, row.detail, row.timestamp] : row.kind,
      ),
      [
        [
          'warning',
          "The agent's message is too large to show here",
          `It is about 40 MB, more than the 32 MB the extension reads in one reply, so its content was not loaded. ${open}`,
          '2026-11-23T19:49:50.000001',
        ],
        [
          'warning',
          'An action of the agent (BrowserNavigateAction) is too large to show here',
          `It is larger than the 32 MB the extension reads in one reply, so its content was not loaded. ${open}`,
          '2026-11-23T19:49:50.000001',
        ],
        [
          'warning',
          'An event (NewKindEvent) is too large to show here',
          `It is about 33 MB, more than the 32 MB the extension reads in one reply, so its content was not loaded. ${open}`,
          '2026-11-23T19:49:50.000001',
        ],
      ],
    );
  });

  it('never shows an event twice', () => {
    const transcript = new Transcript();
    const [action, observation] = terminalPair('ls', 'a', 0);
    transcript.append([action, observation]);
    const again = transcript.append([action, observation]);
    assert.equal(transcript.size, 1);
    assert.equal(again.end.length, 0);
  });

  it("makes the server-generated summaries readable, keeps the LLM's own, and shows a thought once", () => {
    const transcript = new Transcript();
    const think = event('ActionEvent', {
      action: { thought: 'Plan: test first.', kind: 'ThinkAction' },
      tool_name: 'think',
      tool_call_id: 't',
      security_risk: 'UNKNOWN',
      summary: 'think: {"thought": "Plan: test first."}',
    });
    const logged = event(
      'ObservationEvent',
      {
        tool_name: 'think',
        tool_call_id: 't',
        action_id: think.id,
        observation: {
          content: [{ type: 'text', text: 'Your thought has been logged.' }],
          is_error: false,
          kind: 'ThinkObservation',
        },
      },
      'environment',
    );
    const edit = event('ActionEvent', {
      action: { command: 'create', path: '/w/notes.md', kind: 'FileEditorAction' },
      tool_name: 'file_editor',
      tool_call_id: 'e',
      security_risk: 'LOW',
      summary: 'file_editor: {"command": "create"}',
    });
    const own = event('ActionEvent', {
      action: { command: 'ls', kind: 'TerminalAction' },
      tool_name: 'terminal',
      tool_call_id: 'o',
      security_risk: 'LOW',
      summary: 'List the files',
    });
    transcript.append([think, logged, edit, own]);
    const [thought, created, listed] = transcript.all;
    assert.ok(
      thought?.kind === 'action' &&
        thought.summary === 'Plan: test first.' &&
        thought.result === undefined &&
        thought.thought === undefined,
    );
    assert.ok(created?.kind === 'action' && created.summary === 'Create notes.md');
    assert.ok(listed?.kind === 'action' && listed.summary === 'List the files');
  });
});

describe('compact diff', () => {
  it('shows a new file as added lines and an unchanged file as nothing', () => {
    assert.deepEqual(compactDiff('', 'a\nb\n'), {
      lines: [
        { op: '+', text: 'a' },
        { op: '+', text: 'b' },
      ],
      added: 2,
      removed: 0,
    });
    assert.deepEqual(compactDiff('a\n', 'a\n'), { lines: [], added: 0, removed: 0 });
  });

  it('stays bounded for a huge rewrite', () => {
    const before = Array.from({ length: 5000 }, (_, i) => `a${i}`).join('\n');
    const after = Array.from({ length: 5000 }, (_, i) => `b${i}`).join('\n');
    const diff = compactDiff(before, after, 200);
    assert.equal(diff.added, 5000);
    assert.equal(diff.removed, 5000);
    assert.equal(diff.lines.length, 201);
  });

  it('says what a browser step did (the page, the element, the text typed), not the tool’s JSON', () => {
    const transcript = new Transcript();
    // tool names as agent server 1.34 gives them; its own summary is the tool's JSON
    const toolName = (kind: unknown) =>
      `browser_${String(kind)
        .replace(/^Browser|Action$/g, '')
        .replace(/(?<=.)([A-Z])/g, '_$1')
        .toLowerCase()}`;
    const browse = (action: Record<string, unknown>) =>
      event('ActionEvent', {
        action,
        tool_name: toolName(action['kind']),
        tool_call_id: `call-${++toolCalls}`,
        security_risk: 'LOW',
        summary: `${toolName(action['kind'])}: ${JSON.stringify(action)}`,
      });
    transcript.append([
      browse({ kind: 'BrowserNavigateAction', url: 'http://127.0.0.1:8011/shop?item=1', new_tab: false }),
      browse({ kind: 'BrowserClickAction', index: 7, new_tab: true }),
      browse({ kind: 'BrowserTypeAction', index: 3, text: 'hello\nworld' }),
      browse({ kind: 'BrowserGetStateAction', include_screenshot: true }),
      browse({ kind: 'BrowserScrollAction', direction: 'up' }),
    ]);
    assert.deepEqual(
      transcript.all.map((row) => (row.kind === 'action' ? row.summary : row.kind)),
      [
        'Open http://127.0.0.1:8011/shop?item=1',
        'Click element 7 in a new tab',
        'Type “hello world” into element 3',
        'Look at the page (screenshot)',
        'Scroll up',
      ],
    );
  });

  it('gives a browser screenshot as a reference with its kind and size (never its base64), or says why it cannot be shown', () => {
    const png = readFileSync(join(FIXTURES, 'images', 'page.png')).toString('base64');
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ).toString('base64');
    const transcript = new Transcript();
    // held as its head by the event log (IMAGE_HEAD_CHARS): the head says what it is and its size
    const held = png.slice(0, IMAGE_HEAD_CHARS);
    const observationIds: string[] = [];
    for (const screenshot of [png, svg, held]) {
      const action = event('ActionEvent', {
        action: { kind: 'BrowserGetStateAction', include_screenshot: true },
        tool_name: 'browser_get_state',
        tool_call_id: `call-${++toolCalls}`,
        security_risk: 'LOW',
      });
      const observation = event(
        'ObservationEvent',
        {
          tool_name: 'browser_get_state',
          tool_call_id: action['tool_call_id'],
          action_id: action.id,
          observation: {
            kind: 'BrowserObservation',
            content: [{ type: 'text', text: 'Page: Shop' }],
            is_error: false,
            screenshot_data: screenshot,
          },
        },
        'environment',
      );
      observationIds.push(observation.id);
      transcript.append([action, observation]);
    }
    const [seen, refused, cut] = transcript.all;
    assert.ok(seen?.kind === 'action' && refused?.kind === 'action' && cut?.kind === 'action');
    const ref = (id: string | undefined) => ({
      event: id,
      index: 0,
      width: 320,
      height: 200,
      label: 'Screenshot: 320×200 PNG',
    });
    assert.equal(seen.result, 'Page: Shop');
    assert.deepEqual(seen.images, [ref(observationIds[0])]);
    assert.deepEqual(cut.images, [ref(observationIds[2])]);
    assert.equal(
      refused.result,
      'Page: Shop\n\nThe screenshot cannot be shown: an SVG image (shown as text, never as a picture).',
    );
    assert.equal(refused.images, undefined);
    assert.ok(!JSON.stringify(transcript.all).includes(png.slice(0, 40)), 'no base64 in any row');
  });

  it("gives a message's images (ImageContent) as references, and says why a remote or SVG one is not shown", () => {
    const jpeg = readFileSync(join(FIXTURES, 'images', 'page.jpg')).toString('base64');
    const transcript = new Transcript();
    const message = event(
      'MessageEvent',
      {
        llm_message: {
          role: 'user',
          content: [
            { type: 'text', text: 'Does the page look like this?' },
            {
              type: 'image',
              image_urls: [
                `data:image/jpeg;base64,${jpeg}`,
                'https://example.com/tracker.png',
                'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
              ],
            },
          ],
        },
      },
      'user',
    );
    transcript.append([message]);
    const [row] = transcript.all;
    assert.ok(row?.kind === 'message');
    assert.deepEqual(row.images, [
      { event: message.id, index: 0, width: 320, height: 200, label: 'Image: 320×200 JPEG' },
    ]);
    assert.equal(
      row.markdown,
      [
        'Does the page look like this?',
        'An image cannot be shown: a remote image (never loaded).',
        'An image cannot be shown: an SVG image (shown as text, never as a picture).',
      ].join('\n\n'),
    );
  });
});
