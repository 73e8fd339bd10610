// The conversation panel's composer in real Chromium (the harness: the page built from the sources,
// in VS Code's document and CSP), driven by real keyboard and mouse events: the message input (Enter
// sends, Shift+Enter a new line, nothing for an empty draft), the draft kept in setState across a
// reload, Resume and Send, the approval card (Approve, Reject with a reason, Send and Run), the
// outbox (a failed message back in the input, dismissed once), the agent's controls (continue after a
// reject, Pause, Stop, Continue, confirmation mode) and hostile texts from the host shown as text.
// Without Chromium it fails on CI and skips elsewhere (test/shared/chromium.ts).
import { fixtureImage, SVG_WITH_SCRIPT } from '../../../../shared/images';
import assert from 'node:assert/strict';
import type {
  Controls,
  Header,
  OutboxEntry,
  PendingAction,
  WebviewToHost,
} from '../../../../../src/webviews/conversation/shared/protocol';
import { header, resendMessages } from './fixtureRows';
import { type Harness, type HarnessOptions, type HarnessWindow } from './harness';
import { usePages } from './pageSuite';

/** The agent's controls: the page numbers each, and the host answers it by that number. */
type Control = Extract<WebviewToHost, { id: number }>;
const CONTROLS = new Set<string>(['approve', 'reject', 'continue', 'pause', 'stop', 'setConfirmation']);
function isControl(message: WebviewToHost): message is Control {
  return CONTROLS.has(message.type);
}

const EPOCH = 1_700_000_000_000;
/** The page saves its state this long after a change (main.ts PERSIST_DELAY_MS), plus a margin. */
const PERSISTED_MS = 400;

/** A header whose controls differ from the defaults by `controls`. */
function withControls(controls: Partial<Controls>, head: Partial<Header> = {}): Header {
  const base = header(head);
  return { ...base, controls: { ...base.controls, ...controls } };
}

const PENDING: PendingAction[] = [
  {
    id: 'act-1',
    tool: 'terminal',
    summary: 'rm -rf build && make release',
    detail: '{\n  "command": "rm -rf build && make release",\n  "is_input": false\n}',
    risk: 'HIGH',
  },
  {
    id: 'act-2',
    tool: 'file_editor',
    summary: 'Edit src/dates/parse.ts',
    detail: 'command: str_replace\npath: src/dates/parse.ts',
    risk: 'UNKNOWN',
  },
];

function outbox(
  id: string,
  text: string,
  state: OutboxEntry['state'],
  reason: string | null = null,
): OutboxEntry {
  return { id, text, images: 0, state, reason };
}

describe('conversation page composer in Chromium', function () {
  this.timeout(60_000);
  const pages = usePages();
  /** The state each page was opened with (what getState returns until it calls setState). */
  const given = new Map<Harness, unknown>();
  afterEach(() => given.clear());

  async function page(options: Omit<HarnessOptions, 'browser' | 'dir'> = {}): Promise<Harness> {
    const harness = await pages.page(options);
    given.set(harness, options.initialState);
    return harness;
  }

  /** Two frames: whatever was scheduled has rendered. */
  function settle(h: Harness): Promise<void> {
    return h.page.evaluate(
      () =>
        new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
  }

  /** Starts the page as the host does after `ready` (an empty transcript), with this header. */
  async function load(h: Harness, head: Header = header()): Promise<void> {
    for (const m of resendMessages([], EPOCH, head)) await h.post(m);
    await h.page.waitForSelector('#message-input');
    await settle(h);
  }

  async function setHeader(h: Harness, head: Header): Promise<void> {
    await h.post({ type: 'header', header: head });
    await settle(h);
  }

  /**
   * What the page posted besides `ready`, each control's number checked (a whole number of its own,
   * which the host's reply names) and left out, so that the rest compares as written.
   */
  async function sent(h: Harness): Promise<unknown[]> {
    const ids = new Set<number>();
    return (await h.posted())
      .filter((m) => m.type !== 'ready')
      .map((message) => {
        if (!isControl(message)) return message;
        const { id, ...rest } = message;
        assert.ok(Number.isSafeInteger(id), `${message.type} goes with a number`);
        assert.ok(!ids.has(id), 'each request has a number of its own');
        ids.add(id);
        return rest;
      });
  }

  /** The host answers the last control the page posted. */
  async function reply(h: Harness, ok: boolean, error?: string): Promise<void> {
    const id = (await h.posted()).filter(isControl).at(-1)?.id;
    assert.ok(id !== undefined, 'a control was posted');
    await h.post({ type: 'reply', id, ok, ...(error === undefined ? {} : { error }) });
    await settle(h);
  }

  /** How many elements match (0: not in the DOM). */
  function count(h: Harness, selector: string): Promise<number> {
    return h.page.locator(selector).count();
  }

  function inputValue(h: Harness): Promise<string> {
    return h.page.inputValue('#message-input');
  }

  async function label(h: Harness, selector: string): Promise<string> {
    return ((await h.page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();
  }

  /** The element has the `disabled` attribute (a vscode-button reflects it; native controls too). */
  function disabled(h: Harness, selector: string): Promise<boolean> {
    return h.page.$eval(selector, (e) => e.hasAttribute('disabled'));
  }

  /** Types into the message input as the user does (a click, then key presses). */
  async function type(h: Harness, text: string): Promise<void> {
    await h.page.click('#message-input');
    await h.page.keyboard.type(text);
  }

  /** What the page's getState returns now: the last state it saved, or the one it was given. */
  async function lastState(h: Harness): Promise<Record<string, unknown> | undefined> {
    const states = await h.page.evaluate(() => (window as unknown as HarnessWindow).__harness.states);
    return (states.length ? states[states.length - 1] : given.get(h)) as Record<string, unknown> | undefined;
  }

  /** A reload: a new page given what the last one kept (as VS Code does with `getState`). */
  async function reload(h: Harness): Promise<Harness> {
    await h.page.waitForTimeout(PERSISTED_MS);
    const kept = await lastState(h);
    const next = await page({ initialState: kept });
    await load(next);
    return next;
  }

  describe('the message input', () => {
    it('attaches a pasted or dropped image (a thumbnail with Remove), refuses what is not one, and sends both', async () => {
      const h = await page();
      await load(h);
      const png = fixtureImage('page.png').toString('base64');
      const jpeg = fixtureImage('page.jpg').toString('base64');
      const svg = Buffer.from(SVG_WITH_SCRIPT).toString('base64');
      // a paste and a drop as Chromium delivers them: files in a DataTransfer
      const deliver = (kind: 'paste' | 'drop', files: { name: string; type: string; base64: string }[]) =>
        h.page.evaluate(
          ({ kind, files }) => {
            const data = new DataTransfer();
            for (const file of files) {
              const bytes = Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0));
              data.items.add(new File([bytes], file.name, { type: file.type }));
            }
            const target = document.querySelector(kind === 'paste' ? '#message-input' : '.composer');
            target?.dispatchEvent(
              kind === 'paste'
                ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
                : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
            );
          },
          { kind, files },
        );
      await deliver('paste', [{ name: 'image.png', type: 'image/png', base64: png }]);
      await deliver('drop', [
        { name: 'page.jpg', type: 'image/jpeg', base64: jpeg },
        { name: 'logo.png', type: 'image/png', base64: svg },
      ]);
      await h.page.waitForFunction(() => document.querySelectorAll('.attachment img').length === 2);
      await h.page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('.attachment img')].every(
          (img) => img.complete && img.naturalWidth === 320,
        ),
      );
      assert.match(
        await label(h, '.composer-note'),
        /Not attached: logo\.png is not a PNG, JPEG, GIF or WebP image\./,
      );
      assert.equal(await disabled(h, '#send'), false, 'images alone can be sent');
      await h.page.getByRole('button', { name: 'Remove image.png' }).click();
      await settle(h);
      assert.equal(await count(h, '.attachment'), 1);
      await type(h, 'Does the page look like this?');
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await sent(h), [
        {
          type: 'send',
          text: 'Does the page look like this?',
          resume: false,
          images: [{ name: 'page.jpg', mime: 'image/jpeg', base64: jpeg }],
        },
      ]);
      await settle(h);
      assert.equal(await count(h, '.attachment'), 0, 'sent: the thumbnails are gone');
      // the host gives images back (a failed message, or Send Image to Conversation…)
      await h.post({ type: 'attach', images: [{ name: 'page.png', mime: 'image/png', base64: png }] });
      await h.page.waitForFunction(() => document.querySelectorAll('.attachment img').length === 1);
      // images never go into the page's saved state
      assert.ok(!JSON.stringify((await lastState(h)) ?? {}).includes(png.slice(0, 40)));
      const { violations } = await h.page.evaluate(() => (window as unknown as HarnessWindow).__harness);
      assert.deepEqual(violations, []);
    });

    it('sends with Enter (trimmed, once) and clears the input; Shift+Enter is a new line', async () => {
      const h = await page();
      await load(h);
      assert.equal(await label(h, '#send'), 'Send');
      assert.equal(await inputValue(h), '');
      await type(h, '  Fix the flaky test');
      await h.page.keyboard.press('Shift+Enter');
      await h.page.keyboard.type('and add a case for New York  ');
      assert.equal(await inputValue(h), '  Fix the flaky test\nand add a case for New York  ');
      assert.deepEqual(await sent(h), [], 'Shift+Enter sends nothing');
      assert.equal(await disabled(h, '#send'), false, 'Send is enabled with a draft');
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await sent(h), [
        { type: 'send', text: 'Fix the flaky test\nand add a case for New York', resume: false },
      ]);
      await settle(h);
      assert.equal(await inputValue(h), '', 'the input is cleared');
      assert.equal(await disabled(h, '#send'), true, 'nothing left to send');
      // an empty input sends nothing
      await h.page.keyboard.press('Enter');
      assert.deepEqual((await sent(h)).length, 1);
    });

    it('sends with the Send button, and never an empty or blank draft', async () => {
      const h = await page();
      await load(h);
      assert.equal(await disabled(h, '#send'), true, 'Send is disabled while empty');
      // a click where the disabled button is reaches nothing
      await h.page.click('#send', { force: true });
      await type(h, '   ');
      await h.page.keyboard.press('Shift+Enter');
      await h.page.keyboard.type('\t ');
      await settle(h);
      assert.equal(await disabled(h, '#send'), true, 'blank is empty');
      await h.page.keyboard.press('Enter');
      await h.page.click('#send', { force: true });
      assert.deepEqual(await sent(h), [], 'nothing to send');
      assert.equal(await inputValue(h), '   \n\t ', 'the blank draft is left as it was');
      // clear it, then a real message through the button
      await h.page.click('#message-input');
      await h.page.keyboard.press('Control+A');
      await h.page.keyboard.press('Backspace');
      await h.page.keyboard.type('Run the tests');
      await settle(h);
      assert.equal(await disabled(h, '#send'), false);
      await h.page.click('#send');
      assert.deepEqual(await sent(h), [{ type: 'send', text: 'Run the tests', resume: false }]);
      await settle(h);
      assert.equal(await inputValue(h), '');
      assert.equal(await disabled(h, '#send'), true);
    });

    it('sends nothing while an input method composes (Enter confirms the composition)', async () => {
      const h = await page();
      await load(h);
      await h.page.click('#message-input');
      const cdp = await h.page.context().newCDPSession(h.page);
      await cdp.send('Input.imeSetComposition', { text: 'にほん', selectionStart: 3, selectionEnd: 3 });
      await settle(h);
      // the composing text is in the draft: an Enter that were not ignored would send it
      assert.equal(await inputValue(h), 'にほん');
      assert.equal(await disabled(h, '#send'), false);
      // Enter while composing: what the page sees is a keydown with isComposing
      await h.page.evaluate(() => {
        (window as unknown as { __keys: unknown[] }).__keys = [];
        document.addEventListener(
          'keydown',
          (e) => (window as unknown as { __keys: unknown[] }).__keys.push([e.key, e.isComposing]),
          true,
        );
      });
      await cdp.send('Input.dispatchKeyEvent', {
        type: 'keyDown',
        key: 'Enter',
        code: 'Enter',
        windowsVirtualKeyCode: 13,
      });
      await cdp.send('Input.dispatchKeyEvent', {
        type: 'keyUp',
        key: 'Enter',
        code: 'Enter',
        windowsVirtualKeyCode: 13,
      });
      const keys = await h.page.evaluate(() => (window as unknown as { __keys: unknown[] }).__keys);
      assert.deepEqual(keys, [['Enter', true]], 'the Enter was delivered while composing');
      assert.deepEqual(await sent(h), [], 'Enter during a composition sends nothing');
      await cdp.send('Input.insertText', { text: '日本' });
      await settle(h);
      assert.equal(await inputValue(h), '日本');
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await sent(h), [{ type: 'send', text: '日本', resume: false }]);
      await cdp.detach();
    });
  });

  describe('the draft', () => {
    it('survives a reload, and is gone after it was sent', async () => {
      const h = await page();
      await load(h);
      await type(h, 'Half-written thought');
      await h.page.keyboard.press('Shift+Enter');
      await h.page.keyboard.type('second line');
      const again = await reload(h);
      assert.equal(await inputValue(again), 'Half-written thought\nsecond line');
      assert.equal((await lastState(h))?.draft, 'Half-written thought\nsecond line', 'kept in setState');
      // sending it clears what is kept
      await again.page.click('#message-input');
      await again.page.keyboard.press('Enter');
      assert.deepEqual(await sent(again), [
        { type: 'send', text: 'Half-written thought\nsecond line', resume: false },
      ]);
      const third = await reload(again);
      assert.equal(await inputValue(third), '');
      assert.equal((await lastState(again))?.draft, undefined, 'no draft kept after sending');
    });

    it('is in the input at once after a reload, before the host has sent anything', async () => {
      const h = await page({
        initialState: {
          version: 1,
          conversationId: header().conversationId,
          stuck: true,
          draft: 'kept from before',
        },
      });
      assert.equal(await inputValue(h), 'kept from before');
      await load(h);
      assert.equal(await inputValue(h), 'kept from before');
      assert.equal(await disabled(h, '#send'), false, 'it can be sent');
    });
  });

  describe('the sandbox', () => {
    it('offers "Resume and Send" for a paused sandbox that can be resumed, and sends resume: true', async () => {
      const h = await page();
      await load(
        h,
        header({
          sandboxStatus: 'PAUSED',
          canResume: true,
          feed: 'offline',
          feedDetail: 'the sandbox is paused',
          executionStatus: null,
        }),
      );
      assert.equal(await label(h, '#send'), 'Resume and Send');
      assert.match((await h.page.getAttribute('#message-input', 'placeholder')) ?? '', /resumed first/);
      await type(h, 'Carry on');
      await h.page.keyboard.press('Enter');
      await type(h, 'And then this');
      await h.page.click('#send');
      assert.deepEqual(await sent(h), [
        { type: 'send', text: 'Carry on', resume: true },
        { type: 'send', text: 'And then this', resume: true },
      ]);
      // running again: a plain Send
      await setHeader(h, header());
      assert.equal(await label(h, '#send'), 'Send');
    });

    it('disables the input and Send when the sandbox is gone, keeping the draft', async () => {
      const h = await page();
      await load(h);
      await type(h, 'Not lost');
      await setHeader(
        h,
        header({
          sandboxStatus: 'MISSING',
          canResume: false,
          feed: 'offline',
          feedDetail: 'the sandbox is gone',
        }),
      );
      assert.equal(await h.page.isDisabled('#message-input'), true);
      assert.equal(await disabled(h, '#send'), true);
      await h.page.click('#send', { force: true });
      assert.deepEqual(await sent(h), []);
      assert.equal(await inputValue(h), 'Not lost');
      // back: the draft can go
      await setHeader(h, header());
      assert.equal(await h.page.isDisabled('#message-input'), false);
      assert.equal(await disabled(h, '#send'), false);
    });
  });

  describe('the approval card', () => {
    const waiting = (controls: Partial<Controls> = {}) =>
      withControls(
        { confirmationPolicy: 'AlwaysConfirm', pendingActions: PENDING, ...controls },
        { executionStatus: 'waiting_for_confirmation' },
      );

    it('lists each action waiting: its tool, summary, risk and arguments', async () => {
      const h = await page();
      await load(h);
      assert.equal(await count(h, '#confirmation'), 0, 'no card without pending actions');
      await setHeader(h, waiting());
      assert.match(await label(h, '#confirmation'), /The agent waits for you to approve 2 actions\./);
      const listed = await h.page.$$eval('#confirmation .pending-action', (items) =>
        items.map((item) => ({
          tool: item.querySelector('.tool')?.textContent,
          summary: item.querySelector('.pending-summary')?.textContent,
          risk: item.querySelector('.risk-badge')?.textContent,
          riskClass: item.querySelector('.risk-badge')?.className,
          detail: item.querySelector('pre.pending-detail')?.textContent,
        })),
      );
      assert.deepEqual(listed, [
        {
          tool: 'terminal',
          summary: 'rm -rf build && make release',
          risk: 'high risk',
          riskClass: 'risk-badge risk-high',
          detail: PENDING[0]?.detail,
        },
        {
          tool: 'file_editor',
          summary: 'Edit src/dates/parse.ts',
          risk: 'risk not rated',
          riskClass: 'risk-badge risk-unknown',
          detail: PENDING[1]?.detail,
        },
      ]);
      // one action: "its next action"
      await setHeader(h, waiting({ pendingActions: [PENDING[0] as PendingAction] }));
      assert.match(await label(h, '#confirmation'), /approve its next action\./);
      assert.equal(await h.page.$$eval('.pending-action', (items) => items.length), 1);
      // none left: the card goes
      await setHeader(h, header());
      assert.equal(await count(h, '#confirmation'), 0);
    });

    it('approves; disables the buttons while a control is under way', async () => {
      const h = await page();
      await load(h, waiting());
      await h.page.click('#approve');
      assert.deepEqual(await sent(h), [{ type: 'approve' }]);
      await setHeader(h, waiting({ busy: 'approve' }));
      assert.equal(await label(h, '#approve'), 'Approving…');
      assert.equal(await disabled(h, '#approve'), true);
      assert.equal(await disabled(h, '#reject'), true);
      await h.page.click('#approve', { force: true });
      assert.deepEqual(await sent(h), [{ type: 'approve' }], 'a disabled Approve posts nothing');
    });

    it('rejects with a reason typed and Enter; Cancel and Escape close the form without posting', async () => {
      const h = await page();
      await load(h, waiting());
      await h.page.click('#reject');
      await h.page.waitForSelector('#reject-reason');
      assert.equal(await count(h, '#approve'), 0, 'the form replaces the buttons');
      await h.page.waitForFunction(() => document.activeElement?.id === 'reject-reason');
      await h.page.keyboard.type('Not on the shared branch, please');
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await sent(h), [{ type: 'reject', reason: 'Not on the shared branch, please' }]);
      await settle(h);
      assert.equal(await count(h, '#reject-reason'), 0, 'the form closes');
      assert.equal(await count(h, '#approve'), 1);

      // Cancel
      await h.page.click('#reject');
      await h.page.waitForFunction(() => document.activeElement?.id === 'reject-reason');
      await h.page.keyboard.type('changed my mind');
      await h.page.click('#reject-cancel');
      await settle(h);
      assert.equal(await count(h, '#reject-reason'), 0);
      assert.equal(await count(h, '#approve'), 1);
      // Escape
      await h.page.click('#reject');
      await h.page.waitForFunction(() => document.activeElement?.id === 'reject-reason');
      assert.equal(await h.page.inputValue('#reject-reason'), '', 'the cancelled reason is gone');
      await h.page.keyboard.type('also not');
      await h.page.keyboard.press('Escape');
      await settle(h);
      assert.equal(await count(h, '#reject-reason'), 0);
      assert.equal((await sent(h)).length, 1, 'Cancel and Escape post nothing');

      // no reason: the Reject button, and no reason in the message
      await h.page.click('#reject');
      await h.page.waitForSelector('#reject-reason');
      await h.page.click('#reject-confirm');
      assert.deepEqual((await sent(h)).slice(1), [{ type: 'reject' }]);
    });

    // PAGE BUG (src/webviews/conversation/webview/composer.ts, the #reject-reason keydown handler): Enter
    // calls confirmReject even while a control is under way (busy), when the Reject button is
    // disabled; the host drops a control while busy (host/agentControls.ts `if (this.under)`), yet
    // the page has closed the form and thrown the reason away: the reject silently does not happen.
    // Fix: `if (event.key === 'Enter' && !event.isComposing && busy === null) actions.confirmReject();`
    // (or check `this.header?.controls.busy` in main.ts confirmReject).
    it('does not reject with Enter while a control is under way (Reject is disabled)', async () => {
      const h = await page();
      await load(h, waiting());
      await h.page.click('#reject');
      await h.page.waitForFunction(() => document.activeElement?.id === 'reject-reason');
      await h.page.keyboard.type('Not on main');
      await setHeader(h, waiting({ busy: 'policy' }));
      assert.equal(await disabled(h, '#reject-confirm'), true);
      await h.page.keyboard.press('Enter');
      await settle(h);
      assert.deepEqual(await sent(h), [], 'nothing posted while busy');
      assert.equal(await h.page.inputValue('#reject-reason'), 'Not on main', 'the reason is kept');
    });

    it('warns before a message runs the waiting actions: the second Send ("Send and Run") sends', async () => {
      const h = await page();
      await load(h, waiting());
      assert.equal(await count(h, '.composer-note.warning'), 0);
      await type(h, 'Skip that; run the tests instead');
      await h.page.click('#send');
      await settle(h);
      assert.deepEqual(await sent(h), [], 'the first press sends nothing');
      assert.match(
        await label(h, '.composer-note.warning'),
        /Sending runs the 2 actions waiting for approval\. Send again to go ahead/,
      );
      assert.equal(await label(h, '#send'), 'Send and Run');
      // Cancel goes back to a plain Send, still asking first
      await h.page.click('#send-cancel');
      await settle(h);
      assert.equal(await count(h, '.composer-note.warning'), 0);
      assert.equal(await label(h, '#send'), 'Send');
      await h.page.click('#message-input');
      await h.page.keyboard.press('Enter');
      await settle(h);
      assert.deepEqual(await sent(h), []);
      assert.equal(await label(h, '#send'), 'Send and Run');
      // the second press sends
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await sent(h), [
        { type: 'send', text: 'Skip that; run the tests instead', resume: false },
      ]);
      await settle(h);
      assert.equal(await count(h, '.composer-note.warning'), 0);
      assert.equal(await label(h, '#send'), 'Send');
      assert.equal(await inputValue(h), '');
    });

    it('drops the warning when the actions are no longer waiting', async () => {
      const h = await page();
      await load(h, waiting({ pendingActions: [PENDING[1] as PendingAction] }));
      await type(h, 'Go on');
      await h.page.keyboard.press('Enter');
      await settle(h);
      assert.match(await label(h, '.composer-note.warning'), /Sending runs the action waiting for approval/);
      await setHeader(h, header());
      assert.equal(await count(h, '.composer-note.warning'), 0);
      assert.equal(await label(h, '#send'), 'Send');
      await h.page.keyboard.press('Enter');
      assert.deepEqual(await sent(h), [{ type: 'send', text: 'Go on', resume: false }]);
    });
  });

  describe('the outbox', () => {
    it('puts a failed message back before the draft, says why, and dismisses it once', async () => {
      const h = await page();
      await load(h);
      await type(h, 'my draft');
      const failing = withControls({
        outbox: [
          outbox('o1', 'Please fix the parser', 'failed', 'the sandbox is gone.'),
          outbox('o2', 'Then run the tests', 'sending'),
        ],
      });
      await setHeader(h, failing);
      assert.equal(await inputValue(h), 'Please fix the parser\n\nmy draft');
      assert.equal(
        await label(h, '.composer-note.error'),
        'Not sent: the sandbox is gone. Your message is back in the input.',
      );
      assert.deepEqual(await sent(h), [{ type: 'dismissOutbox', id: 'o1' }]);
      // only the one on its way is a bubble
      const bubbles = await h.page.$$eval('.outbox-entry', (entries) =>
        entries.map((e) => [
          e.className,
          e.querySelector('.bubble')?.textContent,
          e.querySelector('.outbox-state')?.textContent,
        ]),
      );
      assert.deepEqual(bubbles, [['outbox-entry outbox-sending', 'Then run the tests', 'Sending…']]);
      // the same header again (the host has not dropped it yet): nothing more
      await setHeader(h, failing);
      await setHeader(h, failing);
      assert.deepEqual(await sent(h), [{ type: 'dismissOutbox', id: 'o1' }]);
      assert.equal(await inputValue(h), 'Please fix the parser\n\nmy draft', 'not put back twice');
      // what was put back is kept for a reload
      await h.page.waitForTimeout(PERSISTED_MS);
      assert.equal((await lastState(h))?.draft, 'Please fix the parser\n\nmy draft');
    });

    it('while the conversation starts: the banner says its status, the input says it queues, a queued message is its own bubble', async () => {
      const h = await page();
      await load(h);
      await setHeader(
        h,
        withControls(
          { outbox: [outbox('o1', 'Keep the notes short', 'queued')] },
          { feed: 'connecting', executionStatus: null, starting: { status: 'Waiting for the sandbox…' } },
        ),
      );
      assert.equal(await label(h, '.feed-starting .banner-headline'), 'Waiting for the sandbox…');
      assert.equal(await label(h, '.exec'), 'starting', 'no agent yet: its status is not "unknown"');
      assert.equal(
        await h.page.isVisible('.empty'),
        false,
        'no "send the agent a task" while its task waits',
      );
      assert.match(await label(h, '.feed-starting .banner-note'), /OpenHands queues your messages/);
      assert.match(
        (await h.page.getAttribute('#message-input', 'placeholder')) ?? '',
        /^Message the agent \(queued until the conversation has started\)/,
      );
      const bubbles = await h.page.$$eval('.outbox-entry', (entries) =>
        entries.map((e) => [
          e.className,
          e.querySelector('.outbox-state')?.textContent,
          // waiting, not on its way: no spinner
          e.querySelector('.codicon-modifier-spin') === null,
          getComputedStyle(e.querySelector('.bubble') as Element).borderStyle,
        ]),
      );
      assert.deepEqual(bubbles, [
        [
          'outbox-entry outbox-queued',
          'Queued: the agent gets it once the conversation has started',
          true,
          'dashed',
        ],
      ]);
      assert.equal(await disabled(h, '#message-input'), false, 'the user can write while it starts');
    });

    // PAGE BUG (src/webviews/conversation/webview/main.ts, composerActions.input): typing sets
    // `note: null` but re-renders only when the draft turns empty or non-empty, so "Not sent: …"
    // stays on screen while the user edits the message it was about (until some other render).
    // Fix: also re-render when a note was shown, e.g. `const hadNote = this.composer.note !== null;`
    // before the update and `if (hadNote || hadText !== (text.trim() !== '')) this.renderComposer();`.
    it('clears the "Not sent" note once the user types', async () => {
      const h = await page();
      await load(h);
      await setHeader(
        h,
        withControls({ outbox: [outbox('o1', 'Please fix the parser', 'failed', 'gone.')] }),
      );
      assert.match(await label(h, '.composer-note.error'), /^Not sent: gone\./);
      await h.page.click('#message-input');
      await h.page.keyboard.press('End');
      await h.page.keyboard.type('!');
      await settle(h);
      assert.equal(await inputValue(h), 'Please fix the parser!');
      assert.equal(await count(h, '.composer-note.error'), 0);
    });

    it('puts a failed message alone into an empty input, with a reason even when none is given', async () => {
      const h = await page();
      await load(h);
      await setHeader(h, withControls({ outbox: [outbox('o9', 'Only this', 'failed', null)] }));
      assert.equal(await inputValue(h), 'Only this');
      assert.match(await label(h, '.composer-note.error'), /^Not sent: the server did not take it\./);
      assert.deepEqual(await sent(h), [{ type: 'dismissOutbox', id: 'o9' }]);
      assert.equal(await count(h, '.outbox-entry'), 0, 'no bubble for a failed message');
    });

    it('shows each message on its way with where it stands', async () => {
      const h = await page();
      await load(h);
      await setHeader(
        h,
        withControls({
          outbox: [
            outbox('a', 'one', 'resuming'),
            outbox('b', 'two', 'connecting'),
            outbox('c', 'three', 'sending'),
            outbox('d', 'four', 'sent'),
          ],
        }),
      );
      const bubbles = await h.page.$$eval('.outbox-entry', (entries) =>
        entries.map((e) => [
          e.className,
          e.querySelector('.bubble')?.textContent,
          e.querySelector('.outbox-state')?.textContent,
        ]),
      );
      assert.deepEqual(bubbles, [
        ['outbox-entry outbox-resuming', 'one', 'Resuming the sandbox…'],
        ['outbox-entry outbox-connecting', 'two', 'Waiting for the sandbox to answer…'],
        ['outbox-entry outbox-sending', 'three', 'Sending…'],
        ['outbox-entry outbox-sent', 'four', 'Sent; waiting for the agent to receive it…'],
      ]);
      await setHeader(h, header());
      assert.equal(await count(h, '.outbox-entry'), 0, 'gone once the host drops them');
      assert.deepEqual(await sent(h), []);
    });
  });

  describe("the agent's controls", () => {
    it('offers to let the agent continue after a reject', async () => {
      const h = await page();
      await load(h);
      assert.equal(await count(h, '#after-reject'), 0);
      await setHeader(h, withControls({ rejected: true }, { executionStatus: 'idle' }));
      assert.match(await label(h, '#after-reject'), /You rejected the action; the agent is waiting\./);
      await h.page.click('#continue-after-reject');
      assert.deepEqual(await sent(h), [{ type: 'continue' }]);
      // while actions wait, the approval card is shown instead
      await setHeader(h, withControls({ rejected: true, pendingActions: PENDING }));
      assert.equal(await count(h, '#after-reject'), 0);
      assert.equal(await count(h, '#confirmation'), 1);
    });

    it('pauses and stops a running agent, and continues a paused one', async () => {
      const h = await page();
      await load(h, header({ executionStatus: 'running' }));
      assert.equal(await count(h, '#continue-agent'), 0);
      await h.page.click('#pause-agent');
      await h.page.click('#stop-agent');
      assert.deepEqual(await sent(h), [{ type: 'pause' }, { type: 'stop' }]);
      await setHeader(h, header({ executionStatus: 'paused' }));
      assert.equal(await count(h, '#pause-agent'), 0);
      assert.equal(await count(h, '#stop-agent'), 0);
      await h.page.click('#continue-agent');
      assert.deepEqual((await sent(h)).slice(2), [{ type: 'continue' }]);
      // not live: Continue is there but disabled
      await setHeader(h, header({ executionStatus: 'paused', feed: 'reconnecting', retryInMs: 5000 }));
      assert.equal(await disabled(h, '#continue-agent'), true);
      await h.page.click('#continue-agent', { force: true });
      assert.equal((await sent(h)).length, 3);
      // idle: none of them
      await setHeader(h, header({ executionStatus: 'idle' }));
      for (const id of ['#pause-agent', '#stop-agent', '#continue-agent'])
        assert.equal(await count(h, id), 0, id);
    });

    it('turns confirmation mode on and off with the checkbox', async () => {
      const h = await page();
      await load(h);
      assert.equal(await h.page.isChecked('#confirm-mode'), false, 'NeverConfirm: off');
      await h.page.click('#confirm-mode');
      assert.deepEqual(await sent(h), [{ type: 'setConfirmation', on: true }]);
      // the host works on it: the box shows the choice, not the old policy
      await setHeader(h, withControls({ confirmationPolicy: 'NeverConfirm', busy: 'policy' }));
      assert.equal(await h.page.isChecked('#confirm-mode'), true, 'the choice shows while the host works');
      await setHeader(h, withControls({ confirmationPolicy: 'AlwaysConfirm' }));
      await reply(h, true);
      assert.equal(await h.page.isChecked('#confirm-mode'), true);
      await h.page.click('#confirm-mode');
      assert.deepEqual((await sent(h)).slice(1), [{ type: 'setConfirmation', on: false }]);
      // refused: once the host has answered, the box shows the server's policy again
      await setHeader(h, withControls({ confirmationPolicy: 'AlwaysConfirm', busy: 'policy' }));
      assert.equal(await h.page.isChecked('#confirm-mode'), false, 'the choice shows while the host works');
      await setHeader(h, withControls({ confirmationPolicy: 'AlwaysConfirm' }));
      await reply(h, false, 'refused');
      assert.equal(await h.page.isChecked('#confirm-mode'), true, 'the server kept it on');
      assert.equal(await label(h, '.control-error'), 'refused');
      await setHeader(h, withControls({ confirmationPolicy: 'ConfirmRisky' }));
      assert.equal(await h.page.isChecked('#confirm-mode'), true);
      assert.match(await label(h, '.confirm-mode'), /Ask before actions \(risky ones\)/);
      await setHeader(h, withControls({ confirmationPolicy: null }));
      assert.equal(await h.page.isChecked('#confirm-mode'), false, 'unknown: off');
      // not live, or a control under way: disabled
      await setHeader(h, header({ feed: 'connecting' }));
      assert.equal(await h.page.isDisabled('#confirm-mode'), true);
      await setHeader(h, withControls({ busy: 'policy' }));
      assert.equal(await h.page.isDisabled('#confirm-mode'), true);
      assert.equal((await sent(h)).length, 2);
    });

    it("shows a control's error from its reply, until the next control", async () => {
      const h = await page();
      await load(h, header({ executionStatus: 'running' }));
      assert.equal(await count(h, '.control-error'), 0);
      await h.page.click('#pause-agent');
      await reply(h, false, 'Could not pause: the agent server refused (409).');
      assert.equal(await label(h, '.control-error'), 'Could not pause: the agent server refused (409).');
      await h.page.click('#pause-agent');
      await settle(h);
      assert.equal(await count(h, '.control-error'), 0, 'a new attempt clears the old failure');
      await reply(h, true);
      assert.equal(await count(h, '.control-error'), 0);
      // a reply to no request of this page (one sent before a reload) changes nothing
      await h.page.click('#pause-agent');
      await h.post({ type: 'reply', id: 1, ok: false, error: 'not for this page' });
      await settle(h);
      assert.equal(await count(h, '.control-error'), 0);
    });
  });

  describe('hostile texts', () => {
    it('shows hostile texts from the host as text', async () => {
      const h = await page();
      await load(h);
      const evil = '<img src=x onerror="document.body.dataset.pwned=1">';
      await setHeader(
        h,
        withControls({
          outbox: [
            outbox('f', `${evil} failed`, 'failed', `${evil} reason`),
            outbox('s', `${evil} bubble`, 'sending'),
          ],
          pendingActions: [
            {
              id: 'p',
              tool: `${evil} tool`,
              summary: `${evil} summary`,
              detail: `${evil} detail`,
              risk: 'HIGH',
            },
          ],
        }),
      );
      await h.page.click('#approve');
      await reply(h, false, `${evil} error`);
      const seen = await h.page.evaluate(() => ({
        images: document.querySelectorAll('img').length,
        pwned: document.body.dataset.pwned,
        bubble: document.querySelector('.outbox-entry .bubble')?.textContent,
        tool: document.querySelector('.pending-action .tool')?.textContent,
        summary: document.querySelector('.pending-summary')?.textContent,
        detail: document.querySelector('pre.pending-detail')?.textContent,
        error: document.querySelector('.control-error')?.textContent?.trim(),
        note: document.querySelector('.composer-note.error')?.textContent?.replace(/\s+/g, ' ').trim(),
        input: (document.querySelector('#message-input') as HTMLTextAreaElement).value,
      }));
      assert.equal(seen.images, 0, 'no img element');
      assert.equal(seen.pwned, undefined);
      assert.equal(seen.bubble, `${evil} bubble`);
      assert.equal(seen.tool, `${evil} tool`);
      assert.equal(seen.summary, `${evil} summary`);
      assert.equal(seen.detail, `${evil} detail`);
      assert.equal(seen.error, `${evil} error`);
      assert.equal(seen.note, `Not sent: ${evil} reason Your message is back in the input.`);
      assert.equal(seen.input, `${evil} failed`);
    });
  });
});
