// The page's pure rules: which links a message may hold, how the server's texts are cut and
// labelled, and what the page keeps in setState (never anything the server sent but ids).
import assert from 'node:assert/strict';
import { MAX_LINK_LENGTH, safeLinkUrl } from '../../../../../src/webviews/conversation/webview/linkPolicy';
import {
  boundedText,
  executionStatus,
  executionStatusLabel,
  formatCount,
  oneLine,
  sandboxStatusLabel,
  secondsLeft,
  shortTime,
} from '../../../../../src/webviews/conversation/webview/text';
import { readViewState, viewState } from '../../../../../src/webviews/conversation/webview/viewState';

describe('conversation page: the link policy', () => {
  it('keeps absolute http, https and mailto links, normalised', () => {
    assert.equal(safeLinkUrl('https://example.com/a?b=c#d'), 'https://example.com/a?b=c#d');
    assert.equal(safeLinkUrl('  HTTP://Example.COM  '), 'http://example.com/');
    assert.equal(safeLinkUrl('mailto:someone@example.com'), 'mailto:someone@example.com');
    assert.equal(safeLinkUrl('https://example.com/a b'), 'https://example.com/a%20b');
  });

  it('refuses every other scheme, relative links and odd values', () => {
    for (const url of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'command:workbench.action.terminal.new',
      'vscode://openhands/conversation?id=1',
      'file:///etc/passwd',
      'data:text/html,<script>alert(1)</script>',
      'blob:https://example.com/1',
      'ftp://example.com',
      'vbscript:msgbox',
      '/relative/path',
      '../up',
      '//example.com/protocol-relative',
      '#anchor',
      'https://',
      '',
      '   ',
    ])
      assert.equal(safeLinkUrl(url), undefined, url);
    assert.equal(safeLinkUrl(undefined), undefined);
    assert.equal(safeLinkUrl(null), undefined);
    assert.equal(safeLinkUrl(42), undefined);
    assert.equal(safeLinkUrl(`https://example.com/${'a'.repeat(MAX_LINK_LENGTH)}`), undefined, 'too long');
  });
});

describe("conversation page: the server's texts", () => {
  it('cuts one-line texts and long blocks, saying how much is left out', () => {
    assert.equal(oneLine('a\nb\r\n\tc'), 'a b c');
    assert.equal(oneLine('x'.repeat(10), 4), 'xxxx…');
    assert.deepEqual(boundedText('abc', 5), { text: 'abc', omitted: 0 });
    assert.deepEqual(boundedText('abcdefgh', 5), { text: 'abcde', omitted: 3 });
  });

  it('shows times, counts and statuses, and odd values as unknown', () => {
    assert.equal(shortTime('2026-11-23T19:49:07.000001'), '19:49:07');
    assert.equal(shortTime('not a time'), '');
    assert.equal(shortTime(''), '');
    assert.equal(formatCount(10000), '10,000');
    assert.equal(formatCount(Number.NaN), '?');
    assert.equal(executionStatus('RUNNING'), 'running');
    assert.equal(
      executionStatusLabel(executionStatus('waiting_for_confirmation')),
      'waiting for confirmation',
    );
    assert.equal(executionStatus(null), 'unknown');
    assert.equal(executionStatus('<script>'), 'unknown');
    assert.equal(sandboxStatusLabel('RUNNING'), 'running');
    assert.equal(sandboxStatusLabel(null), 'unknown');
    assert.equal(sandboxStatusLabel('X'.repeat(1000)).length <= 41, true);
    assert.equal(secondsLeft(10_500, 10_000), 1);
    assert.equal(secondsLeft(5_000, 10_000), 0);
  });
});

describe('conversation page: what it keeps in setState', () => {
  it('holds the conversation id and where the reader was, nothing else', () => {
    const state = viewState('abc', false, { id: 'r12', delta: 33.4 });
    assert.deepEqual(state, {
      version: 1,
      conversationId: 'abc',
      stuck: false,
      top: { id: 'r12', delta: 33 },
    });
    assert.deepEqual(viewState('abc', true, { id: 'r12', delta: 3 }), {
      version: 1,
      conversationId: 'abc',
      stuck: true,
    });
    assert.deepEqual(viewState(undefined, true, undefined), { version: 1, stuck: true });
    assert.deepEqual(readViewState(state), state);
  });

  it('drops state from another build or with odd values', () => {
    assert.equal(readViewState(undefined), undefined);
    assert.equal(readViewState({ version: 2, stuck: true }), undefined);
    assert.equal(readViewState({ version: 1, stuck: 'yes' }), undefined);
    assert.equal(
      readViewState({ version: 1, stuck: false, top: { id: 'x'.repeat(500), delta: 1 } }),
      undefined,
    );
    assert.equal(readViewState({ version: 1, stuck: false, top: { id: 'a', delta: Number.NaN } }), undefined);
  });
});
