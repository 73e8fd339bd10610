// The agent's changes in the editor (issue 17) against the agent-server double, whose sandbox folders
// are real git repositories: the Changes node and its files in the Conversations view, the native diff
// editor (an update, an addition), Open All Changes in the multi-file diff, the panel's Changes fold,
// Apply to the workspace folder made a clone of the sandbox's base (through the real modal dialogs),
// a conflict refused then skipped, Save as Patch through the save dialog, Accept This File from the
// diff editor's title, files that can run code marked and left out. Every step makes its own sample
// and its own local clone.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import type { E2EContext } from './context';
import { setColorTheme } from './colorTheme';
import { clickDialogButton, dialogSaying } from './dialogs';
import { agentDouble, waitForTranscript } from './conversationPanel';
import { openOpenHandsView, viewPane } from './openhands-view';
import { answerInputBox, pickConversation, QUICK_INPUT, runCommand } from './palette';
import type { StepRunner } from './runner';
import { CONVERSATIONS_VIEW, ROW, SANDBOXES_VIEW } from './selectors';
import { listConversations, type ConversationSummary } from './server-api';
import { eventually } from './wait';
import { git, isAgentServerFile, treeOf } from '../shared/sandboxWorkspace';
import { OPEN_WORKBENCH } from './workbench.steps';
import { withWorkspaceAside } from './workspaceAside';
import { captureWalkthroughMedia } from './walkthroughMedia';

const TREE =
  'Changes: the Changes node under a conversation lists the files with status and A/M/D decorations';
const DIFF = 'Changes: a file row opens the read-only side-by-side diff (an update, an added file)';
const PICTURES =
  'Changes: a changed PNG opens in the image preview, the base and the agent’s version side by side';
const OPEN_ALL = 'Changes: Open All Changes from the Changes node shows the multi-file diff';
const PANEL = 'Changes: the panel’s Changes fold lists the files with their letters and three buttons';
const APPLY =
  'Changes: Apply from the panel, through the repository question, brings every file into the workspace clone';
const CONFLICT =
  'Changes: a conflicting local commit: Apply lists the file, Cancel leaves the clone clean; skipping applies the rest';
const PATCH = 'Changes: Save as Patch from the panel through the save dialog writes a patch git applies';
const ACCEPT = 'Changes: Accept This File from the diff editor’s title brings one added file into the clone';
const RUNS_CODE =
  'Changes: files that can run code are marked in the tree, the diff title and the panel; Apply lists them and asks once: Review First opens their diffs, Apply Without Them leaves them out';

type Conversation = ConversationSummary & { title: string };
type Sample = Awaited<ReturnType<typeof agentDouble.sampleWorkspace>>;
type Change = Sample['changes'][number];

/** The sample's files as the agent server lists them (a rename is a deletion and an addition). */
const SAMPLE_CHANGES = [
  'ADDED big.txt',
  'ADDED moved-to.txt',
  'ADDED notes/new.md',
  'DELETED moved-from.txt',
  'DELETED old.txt',
  'UPDATED logo.png',
  'UPDATED src/app.ts',
];
/** The double's preset of files that can run code (codeRunningWorkspace.ts). */
const CODE_RUNNING_CHANGES = [
  'ADDED .husky/pre-commit',
  'ADDED .vscode/tasks.json',
  'ADDED notes/plan.md',
  'UPDATED Makefile',
  'UPDATED scripts/build.sh',
  'UPDATED src/app.ts',
];
/** The double's picture preset (imageWorkspace.ts). */
const PICTURE_CHANGES = [
  'ADDED art/evil.png',
  'ADDED art/small.webp',
  'DELETED art/photo.jpg',
  'UPDATED art/page.png',
];

type Preset = 'sample' | 'images' | 'runs-code';
const PRESETS: Record<
  Preset,
  { make: (serverUrl: string, id: string) => Promise<Sample>; expected: string[] }
> = {
  sample: { make: agentDouble.sampleWorkspace, expected: SAMPLE_CHANGES },
  images: { make: agentDouble.imageWorkspace, expected: PICTURE_CHANGES },
  'runs-code': { make: agentDouble.codeRunningWorkspace, expected: CODE_RUNNING_CHANGES },
};

// ---- git and the sandbox ----

function hasCommit(dir: string): boolean {
  try {
    return git(dir, 'rev-parse', '--verify', '-q', 'HEAD').trim() !== '';
  } catch {
    return false;
  }
}

/**
 * The sample on the conversation's sandbox, as on a fresh one: whatever an earlier step or agent run
 * left in its work tree goes first (a previous sample's staged rename would otherwise be committed
 * into the new base: the double commits the index), the agent server's own files stay.
 */
async function freshSample(
  serverUrl: string,
  id: string,
  preset: Preset = 'sample',
): Promise<{ sample: Sample; files: Change[] }> {
  const { make, expected } = PRESETS[preset];
  let paths: string[] = [];
  // an agent run that is not quite over may still write: the sample is made again until it holds
  return eventually(
    'a sample with exactly the sample’s changes',
    async () => {
      const { dir } = await agentDouble.workspace(serverUrl, id, {});
      if (hasCommit(dir)) {
        git(dir, 'reset', '--quiet', '--hard');
        git(dir, 'clean', '-fdq', '-e', '/.openhands-agent-server.log', '-e', '/workspace/');
      }
      const sample = await make(serverUrl, id);
      const files = sample.changes.filter((change) => !isAgentServerFile(change.path));
      paths = files.map((change) => `${change.status} ${change.path}`).sort();
      return JSON.stringify(paths) === JSON.stringify(expected) ? { sample, files } : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 1_000, lastSeen: async () => JSON.stringify(paths) },
  );
}

/**
 * Runs `body` with the workbench's folder a clone of the sandbox's repository at its base commit (what
 * a user has on their machine); what earlier steps left there is set aside and put back after.
 */
async function inWorkspaceClone(
  workspaceFolder: string,
  sandboxDir: string,
  body: () => Promise<void>,
): Promise<void> {
  await withWorkspaceAside(
    workspaceFolder,
    () => git(workspaceFolder, 'clone', '--quiet', sandboxDir, '.'),
    body,
  );
}

/** The local file is as the agent left it in the sandbox (gone when it deleted it). */
function expectAsAgentLeftIt(local: string, sandboxDir: string, change: Change): void {
  const here = path.join(local, change.path);
  if (change.status === 'DELETED') {
    if (fs.existsSync(here)) throw new Error(`${change.path} is still in the local repository`);
    return;
  }
  if (!fs.existsSync(here)) throw new Error(`${change.path} is not in the local repository`);
  if (!fs.readFileSync(here).equals(fs.readFileSync(path.join(sandboxDir, change.path))))
    throw new Error(`${change.path} differs from the agent's version`);
}

// ---- the workbench ----

function clean(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

async function clearNotifications(page: Page): Promise<void> {
  await runCommand(page, 'Notifications: Clear All Notifications');
}

/** The repository the conversation was started on (the search reply has it; the summary type not). */
function repositoryOf(conversation: Conversation): string | null {
  return (conversation as Conversation & { selected_repository?: string | null }).selected_repository ?? null;
}

/**
 * A quiet conversation in a running sandbox, its title shown once in the list. First one no step ran
 * an agent in ("idle": the seed's, untouched) and not started on a repository (its Apply asks the
 * plainest question), so the pictures show the same conversation whichever steps ran before.
 */
async function quietConversation(serverUrl: string): Promise<Conversation> {
  const conversations = await listConversations(serverUrl);
  const counts = new Map<string, number>();
  for (const c of conversations) if (c.title) counts.set(c.title, (counts.get(c.title) ?? 0) + 1);
  const quiet = conversations.filter(
    (c): c is Conversation =>
      Boolean(c.title) &&
      counts.get(c.title ?? '') === 1 &&
      c.sandbox_status === 'RUNNING' &&
      c.execution_status !== 'running',
  );
  const idle = (c: Conversation) => c.execution_status === 'idle';
  const chosen =
    quiet.find((c) => idle(c) && !repositoryOf(c)) ??
    quiet.find(idle) ??
    quiet.find((c) => !repositoryOf(c)) ??
    quiet[0];
  if (!chosen) throw new Error('the test server has no quiet conversation in a running sandbox');
  return chosen;
}

interface RowInfo {
  label: string;
  level: number;
}

async function rowInfos(pane: Locator): Promise<RowInfo[]> {
  return pane.locator(ROW).evaluateAll((rows) =>
    rows.map((row) => ({
      label: row.getAttribute('aria-label') ?? '',
      level: Number(row.getAttribute('aria-level') ?? '0'),
    })),
  );
}

/** The rendered rows under the conversation's row (its Changes node and, expanded, the files). */
async function rowsUnder(pane: Locator, title: string): Promise<{ start: number; rows: RowInfo[] }> {
  const rows = await rowInfos(pane);
  const start = rows.findIndex((row) => row.label.includes(title) && row.level === 1);
  if (start < 0) return { start, rows: [] };
  const parent = rows[start] as RowInfo;
  const under: RowInfo[] = [];
  for (const row of rows.slice(start + 1)) {
    if (row.level <= parent.level) break;
    under.push(row);
  }
  return { start, rows: under };
}

/** Expands a row (its twistie), unless it already is. */
async function expand(row: Locator): Promise<void> {
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click();
}

/**
 * Shows the conversation's Changes node expanded in the Conversations view, the other views folded
 * so the files fit; returns the view and the Changes row.
 */
async function showChangesInTree(
  page: Page,
  conversation: Conversation,
  fileCount: number,
): Promise<{ pane: Locator; changesRow: Locator }> {
  await openOpenHandsView(page);
  const other = await viewPane(page, SANDBOXES_VIEW);
  await other.locator('.pane-header').first().click();
  const pane = await viewPane(page, CONVERSATIONS_VIEW);
  const conversationRow = pane
    .locator(`${ROW}[aria-level="1"][aria-label*="${conversation.title.replace(/["\\]/g, '\\$&')}"]`)
    .first();
  await conversationRow.waitFor({ state: 'visible', timeout: 15_000 });
  await expand(conversationRow);
  const { start } = await eventually(
    'the Changes node under the conversation',
    async () => {
      const under = await rowsUnder(pane, conversation.title);
      // its aria-label is its tooltip: found by its place, checked by its name below
      return under.rows[0]?.level === 2 ? under : undefined;
    },
    {
      timeoutMs: 10_000,
      lastSeen: async () => JSON.stringify((await rowsUnder(pane, conversation.title)).rows),
    },
  );
  const changesRow = pane.locator(ROW).nth(start + 1);
  const name = clean(await changesRow.locator('.label-name').first().textContent());
  if (name !== 'Changes') throw new Error(`the row under the conversation is "${name}", not Changes`);
  await expand(changesRow);
  await eventually(
    `${fileCount} file rows under Changes`,
    async () => {
      const { rows } = await rowsUnder(pane, conversation.title);
      return rows.filter((row) => row.level === 3).length === fileCount ? true : undefined;
    },
    {
      timeoutMs: 20_000,
      lastSeen: async () =>
        (await rowsUnder(pane, conversation.title)).rows.map((row) => row.label).join(' | '),
    },
  );
  return { pane, changesRow };
}

/**
 * Folds back what showChangesInTree unfolded (the conversation's row, the other views), so later
 * steps' pictures show the sidebar as they knew it.
 */
async function foldBackTree(page: Page, title: string): Promise<void> {
  const pane = await viewPane(page, CONVERSATIONS_VIEW);
  const row = pane
    .locator(`${ROW}[aria-level="1"][aria-label*="${title.replace(/["\\]/g, '\\$&')}"]`)
    .first();
  if ((await row.getAttribute('aria-expanded', { timeout: 5_000 })) === 'true')
    await row.locator('.monaco-tl-twistie').click();
  await viewPane(page, SANDBOXES_VIEW);
}

/** The file's row under the conversation's Changes (its aria-label is "path, status"). */
function fileRow(pane: Locator, change: Change): Locator {
  return pane
    .locator(`${ROW}[aria-level="3"][aria-label^="${change.path.replace(/["\\]/g, '\\$&')}, "]`)
    .first();
}

/** The file decoration's letter on a tree row (VS Code draws it as the label's ::after). */
async function decorationOf(row: Locator): Promise<string> {
  return row.evaluate((el) => {
    for (const node of Array.from(el.querySelectorAll('*'))) {
      const content = getComputedStyle(node, '::after').content;
      if (content && content !== 'none' && content !== 'normal' && /^"[A-Z]"$/.test(content))
        return content.slice(1, -1);
    }
    return '';
  });
}

/** Waits for the active diff editor; returns its two sides' texts. */
async function diffEditorTexts(page: Page): Promise<{ original: string; modified: string; diff: Locator }> {
  const diff = page.locator('.editor-instance .monaco-diff-editor').first();
  await diff.waitFor({ state: 'visible', timeout: 15_000 });
  const side = (name: 'original' | 'modified') =>
    diff
      .locator(`.editor.${name} .view-lines`)
      .first()
      .evaluate((el) => (el as HTMLElement).innerText.replace(/\u00a0/g, ' '));
  return { original: await side('original'), modified: await side('modified'), diff };
}

/** A dialog's words (a message alone shows in the detail's place, so both are read). */
async function dialogText(dialog: Locator): Promise<string> {
  return clean(await dialog.locator('.dialog-message-container').first().textContent());
}

function toast(page: Page, text: string): Locator {
  return page.locator('.notification-toast', { hasText: text }).first();
}

/** A toast's message (its textContent also holds the list's style sheet). */
async function toastMessage(toastLocator: Locator): Promise<string> {
  return clean(await toastLocator.locator('.notification-list-item-message').first().textContent());
}

/** Opens the conversation's panel by id and its Changes fold; returns the panel's document. */
async function openPanelChanges(page: Page, conversation: Conversation, fileCount: number) {
  await runCommand(page, 'View: Close All Editors');
  await runCommand(page, 'OpenHands: Open Conversation');
  await answerInputBox(page, conversation.id);
  const frame = await waitForTranscript(page, 20_000);
  const summary = frame.locator('.changes summary');
  await eventually(
    `"Changes: ${fileCount} files" in the panel`,
    async () => (clean(await summary.textContent()) === `Changes: ${fileCount} files` ? true : undefined),
    { timeoutMs: 20_000, lastSeen: async () => clean(await summary.textContent()) },
  );
  if ((await frame.locator('details.changes').getAttribute('open')) === null) await summary.click();
  await frame.locator('#changes-apply').waitFor({ state: 'visible', timeout: 5_000 });
  return frame;
}

/** Clicks one of the fold's buttons (a webview button: the command runs in the extension host). */
async function clickPanelButton(frame: FrameLocator, id: string): Promise<void> {
  await frame.locator(`#${id}`).click();
}

/**
 * The first question of every Apply here: the conversation has no repository to match the clone with
 * (the workbench's folder is named "workspace"). `picture`: a screenshot of the question first.
 */
async function answerRepositoryQuestion(page: Page, picture?: () => Promise<unknown>): Promise<string> {
  const dialog = await dialogSaying(page, 'Apply to workspace', 15_000);
  const question = await dialogText(dialog);
  if (picture) await picture();
  await clickDialogButton(dialog, 'Apply to workspace');
  return question;
}

export function changesSteps(runner: StepRunner, ctx: E2EContext): void {
  const { page, serverUrl, workspaceFolder } = ctx;
  let chosen: Conversation | undefined;
  const conversation = async (): Promise<Conversation> => (chosen ??= await quietConversation(serverUrl));
  /**
   * Every step's start: no editors, no toasts, a fresh sample, and the extension told to read it
   * again (it reads a conversation's changes when the agent works, not when a test rewrites them).
   */
  const prepare = async (
    target: Conversation,
    preset: Preset = 'sample',
  ): Promise<{ sample: Sample; files: Change[] }> => {
    await runCommand(page, 'View: Close All Editors');
    await clearNotifications(page);
    const fresh = await freshSample(serverUrl, target.id, preset);
    await runCommand(page, 'OpenHands: Refresh Changes');
    await pickConversation(page, target);
    return fresh;
  };
  /** A step that unfolds the tree, folded back after whatever happened. */
  const treeStep = (name: string, body: () => Promise<void>): void =>
    runner.step(
      name,
      async () => {
        try {
          await body();
        } finally {
          if (chosen)
            await foldBackTree(page, chosen.title).catch((error: unknown) =>
              console.log(`      (folding the tree back: ${String(error)})`),
            );
        }
      },
      { needs: [OPEN_WORKBENCH] },
    );

  treeStep(TREE, async () => {
    const target = await conversation();
    const { files } = await prepare(target);
    const { pane, changesRow } = await showChangesInTree(page, target, files.length);
    const { rows } = await rowsUnder(pane, target.title);
    const count = clean(await changesRow.locator('.label-description').first().textContent());
    if (count !== `${files.length} files`) throw new Error(`the Changes node says "${count}"`);
    const labels = rows.slice(1).map((row) => row.label);
    const expected = files.map((change) => `${change.path}, ${change.status.toLowerCase()}`);
    for (const label of expected)
      if (!labels.includes(label)) throw new Error(`no row "${label}" under Changes: ${labels.join(' | ')}`);
    // decorations come from the extension a moment after the rows
    const wanted: Record<string, string> = { ADDED: 'A', UPDATED: 'M', DELETED: 'D', MOVED: 'R' };
    const letters: Record<string, string> = {};
    await eventually(
      'the A/M/D decorations on every file row',
      async () => {
        for (const change of files) letters[change.path] = await decorationOf(fileRow(pane, change));
        return files.every((change) => letters[change.path] === wanted[change.status]) ? true : undefined;
      },
      { timeoutMs: 10_000, lastSeen: async () => JSON.stringify(letters) },
    );
    // the row's description: its folder and status
    const appRow = fileRow(pane, files.find((c) => c.path === 'src/app.ts') as Change);
    const description = clean(await appRow.locator('.label-description').first().textContent());
    if (description !== 'src · updated') throw new Error(`src/app.ts's row says "${description}"`);
    await page.mouse.move(5, 5);
    await ctx.screenshot('changes-tree-light');
  });

  treeStep(DIFF, async () => {
    const target = await conversation();
    const { sample, files } = await prepare(target);
    const { pane } = await showChangesInTree(page, target, files.length);
    const updated = files.find((c) => c.path === 'src/app.ts') as Change;
    await fileRow(pane, updated).click();
    const app = await eventually(
      'the diff of src/app.ts',
      async () => {
        const texts = await diffEditorTexts(page);
        return texts.modified.includes('VERSION') ? texts : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const base = git(sample.dir, 'show', `${sample.head}:src/app.ts`);
    if (clean(app.original) !== clean(base))
      throw new Error(`the left side is ${JSON.stringify(app.original)}, not the base`);
    const mine = fs.readFileSync(path.join(sample.dir, 'src/app.ts'), 'utf8');
    if (clean(app.modified) !== clean(mine))
      throw new Error(`the right side is ${JSON.stringify(app.modified)}, not the agent's`);
    if (!(await app.diff.getAttribute('class'))?.includes('side-by-side'))
      throw new Error('the diff editor is not side by side');
    const tab = clean(await page.locator('.tabs-container .tab.active').first().textContent());
    if (!tab.includes('app.ts (agent’s change)')) throw new Error(`the tab reads "${tab}"`);
    // read-only: typing into the agent's side changes nothing
    await app.diff.locator('.editor.modified .view-lines').first().click();
    await page.keyboard.type('typed');
    const after = await diffEditorTexts(page);
    if (after.modified.includes('typed')) throw new Error('the agent’s side took typing');
    await page.keyboard.press('Escape');
    await page.mouse.move(5, 5);
    await ctx.screenshot('changes-diff-updated');

    const added = files.find((c) => c.path === 'notes/new.md') as Change;
    await fileRow(pane, added).click();
    // the preview tab's diff editor swaps its two sides one after the other: both are waited for
    await eventually(
      'the diff of notes/new.md against nothing',
      async () => {
        const texts = await diffEditorTexts(page);
        return texts.modified.includes('# Notes') && texts.original.trim() === '' ? true : undefined;
      },
      {
        timeoutMs: 20_000,
        lastSeen: async () => JSON.stringify(await diffEditorTexts(page).then(({ diff: _, ...t }) => t)),
      },
    );
    await page.mouse.move(5, 5);
    await ctx.screenshot('changes-diff-added');
    await runCommand(page, 'View: Close All Editors');
  });

  treeStep(PICTURES, async () => {
    const target = await conversation();
    const { files } = await prepare(target, 'images');
    const picture = files.find((c) => c.path === 'art/page.png') as Change;
    // the image preview is a webview on each side, each with its side's picture (320×200)
    const previews = async () => {
      const found: { side: string; drawn: boolean }[] = [];
      for (const frame of page.frames()) {
        const preview = await frame
          .evaluate(() => {
            const img = document.querySelector('img');
            if (!img) return undefined;
            const side = /side%3D(original|modified)/.exec(img.src)?.[1] ?? '';
            const drawn =
              img.complete &&
              img.naturalWidth === 320 &&
              img.naturalHeight === 200 &&
              img.getBoundingClientRect().width > 0;
            return { side, drawn };
          })
          .catch(() => undefined);
        if (preview?.side) found.push(preview);
      }
      return found;
    };
    const sides = (found: { side: string }[]) => new Set(found.map((preview) => preview.side)).size;
    // the webviews on screen over the editor, by their left edge: a preview whose worker raced has its
    // frame there but never draws, so its side cannot be read from its picture
    const previewColumns = async () => {
      const editor = await page.locator('.part.editor').boundingBox();
      if (!editor) return [];
      const boxes = await page
        .locator('iframe.webview')
        .evaluateAll((frames) =>
          frames
            .map((frame) => frame.getBoundingClientRect())
            .map(({ x, y, width, height }) => ({ x, y, width, height })),
        );
      const inside = boxes.filter(
        (box) => box.width > 50 && box.height > 50 && box.x >= editor.x - 1 && box.y >= editor.y - 1,
      );
      return [...new Set(inside.map((box) => Math.round(box.x)))].sort((a, b) => a - b);
    };
    // In the browser, VS Code's webviews load their resources through one service worker; two
    // starting at the same moment can race its registration ("Found unexpected service worker
    // controller"), and one preview then fails to load its picture (ERR_NAME_NOT_RESOLVED) though
    // the extension served both sides (the integration suite reads both through VS Code's file
    // system). Desktop VS Code has no service worker. So: both previews on their own sides, both
    // pictures drawn or, when the worker raced, at least one, with the other preview's frame beside it;
    // the row is clicked again (three times at most) when no preview came at all.
    let found: { side: string; drawn: boolean }[] = [];
    for (let attempt = 1; ; attempt++) {
      const { pane } = await showChangesInTree(page, target, files.length);
      await fileRow(pane, picture).click();
      const both = await eventually(
        'the base and the agent’s picture in two image previews',
        async () => {
          found = await previews();
          return sides(found) === 2 && found.every((preview) => preview.drawn) ? true : undefined;
        },
        { timeoutMs: 12_000 },
      ).catch(() => false);
      if (both) {
        console.log(`      (both pictures drawn; previews at x ${(await previewColumns()).join(', ')})`);
        break;
      }
      found = await previews();
      const columns = await previewColumns();
      if (sides(found) >= 1 && columns.length === 2 && found.some((preview) => preview.drawn)) {
        console.log(
          `      (VS Code's webview service worker raced: ${JSON.stringify(found)}; previews at x ${columns.join(', ')})`,
        );
        break;
      }
      if (attempt === 3)
        throw new Error(
          `not the two image previews with a picture: ${JSON.stringify(found)}; webviews at x ${columns.join(', ')}`,
        );
      console.log(`      (attempt ${attempt}: previews ${JSON.stringify(found)}; opening the row again)`);
      await runCommand(page, 'View: Close All Editors');
      await runCommand(page, 'Notifications: Clear All Notifications');
    }
    const tab = clean(await page.locator('.tabs-container .tab.active').first().textContent());
    if (!tab.includes('page.png (agent’s change)')) throw new Error(`the tab reads "${tab}"`);
    await page.mouse.move(5, 5);
    await ctx.screenshot('changes-diff-picture');
    await runCommand(page, 'View: Close All Editors');
  });

  treeStep(OPEN_ALL, async () => {
    const target = await conversation();
    const { files } = await prepare(target);
    const { changesRow } = await showChangesInTree(page, target, files.length);
    await changesRow.hover();
    await changesRow.locator('.action-label[aria-label="Open All Changes"]').click();
    const tab = page.locator('.tabs-container .tab.active', { hasText: 'Agent’s changes' }).first();
    const pick = page.locator('.quick-input-widget', { hasText: 'Open All Changes' }).first();
    const shown = await Promise.race([
      tab.waitFor({ state: 'visible', timeout: 20_000 }).then(() => 'tab'),
      pick.waitFor({ state: 'visible', timeout: 20_000 }).then(() => 'pick'),
    ]);
    if (shown === 'pick') {
      // the inline action arrived without its row (a tree refresh in between): the command asks
      // which conversation, and a person answers
      console.log('      (Open All Changes from the row asked for the conversation; answering it)');
      await pickConversation(page, target);
      await tab.waitFor({ state: 'visible', timeout: 20_000 });
    }
    const label = clean(await tab.textContent());
    if (!label.includes(`Agent’s changes: ${target.title} (${files.length} files)`))
      throw new Error(`the multi-file diff's tab reads "${label}"`);
    const editor = page.locator('.editor-instance .multiDiffEditor').first();
    await editor.waitFor({ state: 'visible', timeout: 15_000 });
    // the first files' diffs render (the list is virtual: the rest as it scrolls)
    await eventually(
      'the first files in the multi-file diff',
      async () =>
        (await editor.getByText('logo.png', { exact: true }).count()) > 0 &&
        (await editor.locator('.view-line', { hasText: 'is larger than 1 MiB' }).count()) > 0
          ? true
          : undefined,
      { timeoutMs: 20_000 },
    );
    await page.mouse.move(5, 5);
    await ctx.screenshot('changes-open-all');
    await runCommand(page, 'View: Close All Editors');
  });

  runner.step(
    PANEL,
    async () => {
      const target = await conversation();
      const { files } = await prepare(target);
      const frame = await openPanelChanges(page, target, files.length);
      const rows = (
        await frame.locator('.change-file').evaluateAll((els) => els.map((el) => el.textContent ?? ''))
      ).map(clean);
      const letter: Record<string, string> = { ADDED: 'A', UPDATED: 'M', DELETED: 'D', MOVED: 'R' };
      for (const change of files) {
        const slash = change.path.lastIndexOf('/');
        const name = change.path.slice(slash + 1);
        const folder = slash > 0 ? change.path.slice(0, slash) : '';
        const wanted = clean(`${letter[change.status]} ${name} ${folder}`);
        if (!rows.includes(wanted)) throw new Error(`no "${wanted}" in the fold: ${rows.join(' | ')}`);
      }
      for (const id of ['changes-open-all', 'changes-apply', 'changes-save-patch'])
        await frame.locator(`#${id}`).waitFor({ state: 'visible', timeout: 5_000 });
      await ctx.screenshot('changes-panel-light');
      // the walkthrough's "apply" picture: the panel's Changes fold and its buttons
      await captureWalkthroughMedia(page, 'apply', page.locator('.part.editor'), { height: 292 });
      await setColorTheme(page, 'Dark Modern');
      try {
        await frame.locator('#changes-apply').waitFor({ state: 'visible', timeout: 5_000 });
        await ctx.screenshot('changes-panel-dark');
      } finally {
        await setColorTheme(page, 'Light Modern');
      }
      await runCommand(page, 'View: Close All Editors');
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    APPLY,
    async () => {
      const target = await conversation();
      const { sample, files } = await prepare(target);
      await inWorkspaceClone(workspaceFolder, sample.dir, async () => {
        const frame = await openPanelChanges(page, target, files.length);
        await clickPanelButton(frame, 'changes-apply');
        const question = await answerRepositoryQuestion(page, () => ctx.screenshot('changes-apply-question'));
        const expected = repositoryOf(target)
          ? `The conversation works on ${repositoryOf(target)}`
          : `“${target.title}” was not started on a repository`;
        if (!question.includes(expected)) throw new Error(`Apply asked "${question}"`);
        const report = toast(page, 'to workspace.');
        await report.waitFor({ state: 'visible', timeout: 20_000 });
        const text = await toastMessage(report);
        if (!/Applied \d+ files to workspace\./.test(text)) throw new Error(`the report says "${text}"`);
        await page.waitForTimeout(300); // the toast's slide-in
        await ctx.screenshot('changes-applied');
        for (const change of files) expectAsAgentLeftIt(workspaceFolder, sample.dir, change);
        for (const file of treeOf(workspaceFolder).keys())
          if (isAgentServerFile(file)) throw new Error(`the agent server's ${file} came along`);
        console.log(`      (${text} git status: ${clean(git(workspaceFolder, 'status', '--short'))})`);
        await clearNotifications(page);
        await runCommand(page, 'View: Close All Editors');
      });
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    CONFLICT,
    async () => {
      const target = await conversation();
      const { sample, files } = await prepare(target);
      await inWorkspaceClone(workspaceFolder, sample.dir, async () => {
        // the user committed their own version of the lines the agent changed
        const mine = 'export function greet(name: string): string {\n  return `Hi ${name}`;\n}\n';
        fs.writeFileSync(path.join(workspaceFolder, 'src/app.ts'), mine);
        git(workspaceFolder, 'commit', '-qam', 'My own greeting');
        const before = treeOf(workspaceFolder);
        const head = git(workspaceFolder, 'rev-parse', 'HEAD');
        const frame = await openPanelChanges(page, target, files.length);

        const applyUpTo = async (): Promise<Locator> => {
          await clickPanelButton(frame, 'changes-apply');
          await answerRepositoryQuestion(page);
          // HEAD is the user's commit, not the agent's base
          const headQuestion = await dialogSaying(page, 'is not the commit the agent started from', 15_000);
          await clickDialogButton(headQuestion, 'Apply Anyway');
          return dialogSaying(page, 'These files conflict with your repository', 15_000);
        };

        let conflict = await applyUpTo();
        const message = await dialogText(conflict);
        if (!message.includes('src/app.ts')) throw new Error(`the conflict question says "${message}"`);
        await ctx.screenshot('changes-conflict-question');
        await clickDialogButton(conflict, 'Cancel');
        // nothing changed: not a byte, not the index, not HEAD
        await page.waitForTimeout(1_000);
        const after = treeOf(workspaceFolder);
        const changed = [...new Set([...before.keys(), ...after.keys()])].filter(
          (file) => before.get(file) !== after.get(file),
        );
        if (changed.length > 0) throw new Error(`Cancel changed ${changed.join(', ')}`);
        const status = git(workspaceFolder, 'status', '--porcelain');
        if (status !== '') throw new Error(`git status after Cancel: ${status}`);
        if (git(workspaceFolder, 'rev-parse', 'HEAD') !== head) throw new Error('HEAD moved');

        // again, skipping the conflicting file
        conflict = await applyUpTo();
        const skip = conflict
          .locator('.dialog-buttons .monaco-button', { hasText: /^Apply the Other/ })
          .first();
        await skip.click();
        const report = toast(page, 'Skipped: src/app.ts');
        await report.waitFor({ state: 'visible', timeout: 20_000 });
        await page.waitForTimeout(300); // the toast's slide-in
        await ctx.screenshot('changes-conflict-skipped');
        if (fs.readFileSync(path.join(workspaceFolder, 'src/app.ts'), 'utf8') !== mine)
          throw new Error('src/app.ts is not the user’s any more');
        for (const change of files)
          if (change.path !== 'src/app.ts') expectAsAgentLeftIt(workspaceFolder, sample.dir, change);
        console.log(`      (${await toastMessage(report)})`);
        await clearNotifications(page);
        await runCommand(page, 'View: Close All Editors');
      });
    },
    { needs: [OPEN_WORKBENCH] },
  );

  runner.step(
    PATCH,
    async () => {
      const target = await conversation();
      const { sample, files } = await prepare(target);
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'openhands-e2e-patch-'));
      const file = path.join(scratch, 'agent.patch');
      try {
        const frame = await openPanelChanges(page, target, files.length);
        await clickPanelButton(frame, 'changes-save-patch');
        // code-server's save dialog: a quick input holding a path
        const input = page.locator(QUICK_INPUT);
        await input.waitFor({ state: 'visible', timeout: 20_000 });
        // it fills in the folder first, then the suggested name
        const suggested = await eventually(
          'the save dialog suggesting a .patch file',
          async () => {
            const value = await input.inputValue();
            return value.endsWith('.patch') ? value : undefined;
          },
          { lastSeen: () => input.inputValue() },
        );
        await ctx.screenshot('changes-save-dialog');
        console.log(`      (the save dialog suggested ${suggested})`);
        await input.fill(file);
        // while it lists the typed folder it lets an Enter pass (seen once in ~10 runs): pressed again
        // until it takes the path, as a person would
        let presses = 0;
        await eventually(
          'the save dialog to take the path',
          async () => {
            if (await input.isVisible()) {
              presses++;
              await input.press('Enter');
              await page.waitForTimeout(500);
            }
            return (await input.isVisible()) ? undefined : true;
          },
          { timeoutMs: 10_000, lastSeen: () => input.inputValue() },
        );
        if (presses > 1) console.log(`      (the save dialog took the path at Enter number ${presses})`);
        const saved = toast(page, `to ${file}.`);
        await saved.waitFor({ state: 'visible', timeout: 20_000 });
        await page.waitForTimeout(300); // the toast's slide-in
        await ctx.screenshot('changes-patch-saved');
        const patch = fs.readFileSync(file, 'utf8');
        if (!patch.startsWith('diff --git '))
          throw new Error(`the patch starts ${JSON.stringify(patch.slice(0, 40))}`);
        if (/openhands-agent-server\.log|workspace\/conversations\//.test(patch))
          throw new Error('the patch holds the agent server’s own files');
        const check = path.join(scratch, 'check');
        fs.mkdirSync(check);
        git(check, 'clone', '--quiet', sample.dir, '.');
        git(check, 'apply', '--check', file);
        console.log(`      (${await toastMessage(saved)})`);
        await clearNotifications(page);
        await runCommand(page, 'View: Close All Editors');
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
    { needs: [OPEN_WORKBENCH] },
  );

  treeStep(ACCEPT, async () => {
    const target = await conversation();
    const { sample, files } = await prepare(target);
    await inWorkspaceClone(workspaceFolder, sample.dir, async () => {
      const { pane } = await showChangesInTree(page, target, files.length);
      const added = files.find((c) => c.path === 'notes/new.md') as Change;
      await fileRow(pane, added).click();
      await eventually(
        'the diff of notes/new.md',
        async () => ((await diffEditorTexts(page)).modified.includes('# Notes') ? true : undefined),
        { timeoutMs: 20_000 },
      );
      const accept = page.locator('.editor-actions .action-label[aria-label^="Accept This File"]').first();
      await accept.waitFor({ state: 'visible', timeout: 10_000 });
      await accept.hover();
      await page.waitForTimeout(800); // its hover label
      await ctx.screenshot('changes-accept-button');
      await accept.click();
      await answerRepositoryQuestion(page);
      const report = toast(page, 'Applied 1 file to workspace.');
      await report.waitFor({ state: 'visible', timeout: 20_000 });
      await page.waitForTimeout(300); // the toast's slide-in
      await ctx.screenshot('changes-accepted');
      console.log(`      (${await toastMessage(report)})`);
      expectAsAgentLeftIt(workspaceFolder, sample.dir, added);
      const status = git(workspaceFolder, 'status', '--porcelain', '--untracked-files=all').trim();
      if (status !== '?? notes/new.md') throw new Error(`git status after Accept: ${status}`);
      await clearNotifications(page);
      await runCommand(page, 'View: Close All Editors');
    });
  });
  runner.step(
    RUNS_CODE,
    async () => {
      const target = await conversation();
      const { sample, files } = await prepare(target, 'runs-code');
      // the tree: a warning icon and "can run code" on those rows, the reason in the diff editor's title
      try {
        const { pane } = await showChangesInTree(page, target, files.length);
        const tasks = files.find((c) => c.path === '.vscode/tasks.json') as Change;
        const description = clean(
          await fileRow(pane, tasks).locator('.label-description').first().textContent(),
        );
        if (description !== '.vscode · added · can run code')
          throw new Error(`.vscode/tasks.json's row says "${description}"`);
        const plain = files.find((c) => c.path === 'src/app.ts') as Change;
        const plainDescription = clean(
          await fileRow(pane, plain).locator('.label-description').first().textContent(),
        );
        if (plainDescription !== 'src · updated')
          throw new Error(`src/app.ts's row says "${plainDescription}"`);
        await fileRow(pane, tasks).click();
        await eventually(
          'the diff of .vscode/tasks.json',
          async () => ((await diffEditorTexts(page)).modified.includes('folderOpen') ? true : undefined),
          { timeoutMs: 20_000 },
        );
        const tab = clean(await page.locator('.tabs-container .tab.active').first().textContent());
        if (!tab.includes('tasks.json (agent’s change; can run code: VS Code runs its tasks'))
          throw new Error(`the tab reads "${tab}"`);
        await ctx.screenshot('changes-code-running-tree');
      } finally {
        await foldBackTree(page, target.title).catch((error: unknown) =>
          console.log(`      (folding the tree back: ${String(error)})`),
        );
      }
      await inWorkspaceClone(workspaceFolder, sample.dir, async () => {
        const frame = await openPanelChanges(page, target, files.length);
        // the list knows paths: the task, the Makefile and the hook; the script's new mode shows at Apply
        const marked = await frame
          .locator('.change-file:has(.change-runs-code) .change-name')
          .evaluateAll((names) => names.map((name) => name.textContent ?? ''));
        if (JSON.stringify(marked.sort()) !== JSON.stringify(['Makefile', 'pre-commit', 'tasks.json']))
          throw new Error(`the panel marks ${JSON.stringify(marked)}`);
        await ctx.screenshot('changes-code-running-panel');
        const before = treeOf(workspaceFolder);
        const askAbout = async (): Promise<Locator> => {
          await clickPanelButton(frame, 'changes-apply');
          await answerRepositoryQuestion(page);
          return dialogSaying(page, 'can run code on your machine', 20_000);
        };
        // Review First: those files' diffs in one editor, nothing applied
        await clickDialogButton(await askAbout(), 'Review First');
        const review = page.locator('.tabs-container .tab.active', { hasText: 'can run code' }).first();
        await review.waitFor({ state: 'visible', timeout: 20_000 });
        const reviewLabel = clean(await review.textContent());
        if (!reviewLabel.includes(`Agent’s files that can run code: ${target.title} (4 files)`))
          throw new Error(`the review's tab reads "${reviewLabel}"`);
        const after = treeOf(workspaceFolder);
        const touched = [...new Set([...before.keys(), ...after.keys()])].filter(
          (file) => before.get(file) !== after.get(file),
        );
        if (touched.length > 0) throw new Error(`Review First changed ${touched.join(', ')}`);
        if (git(workspaceFolder, 'status', '--porcelain') !== '')
          throw new Error('Review First changed the clone');
        await runCommand(page, 'View: Close All Editors');
        const panel = await openPanelChanges(page, target, files.length);
        await clickPanelButton(panel, 'changes-apply');
        await answerRepositoryQuestion(page);
        const question = await dialogSaying(page, 'can run code on your machine', 20_000);
        const words = await dialogText(question);
        for (const file of ['.vscode/tasks.json', 'Makefile', '.husky/pre-commit', 'scripts/build.sh'])
          if (!words.includes(file)) throw new Error(`the question does not name ${file}: ${words}`);
        for (const file of ['src/app.ts', 'notes/plan.md'])
          if (words.includes(file)) throw new Error(`the question names ${file}: ${words}`);
        await ctx.screenshot('changes-code-running-question');
        await clickDialogButton(question, 'Apply Without Them');
        const report = toast(page, 'Left out, as they can run code');
        await report.waitFor({ state: 'visible', timeout: 20_000 });
        const text = await toastMessage(report);
        if (!/^Applied 2 files to workspace\./.test(text)) throw new Error(`the report says "${text}"`);
        await page.waitForTimeout(300); // the toast's slide-in
        await ctx.screenshot('changes-code-running-applied');
        for (const change of files.filter((c) => ['src/app.ts', 'notes/plan.md'].includes(c.path)))
          expectAsAgentLeftIt(workspaceFolder, sample.dir, change);
        for (const file of ['.vscode/tasks.json', '.husky/pre-commit'])
          if (fs.existsSync(path.join(workspaceFolder, file))) throw new Error(`${file} was applied`);
        const status = git(workspaceFolder, 'status', '--porcelain', '--untracked-files=all').trim();
        if (status !== 'M src/app.ts\n?? notes/plan.md')
          throw new Error(`git status after Apply Without Them: ${status}`);
        if ((fs.statSync(path.join(workspaceFolder, 'scripts/build.sh')).mode & 0o111) !== 0)
          throw new Error('scripts/build.sh was made executable');
        console.log(`      (${text})`);
        await clearNotifications(page);
        await runCommand(page, 'View: Close All Editors');
      });
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
