// The "Get Started with OpenHands" walkthrough (package.json contributes.walkthroughs): opened as a
// user opens it, its six steps listed, and each step's picture (taken earlier in this run, see
// walkthroughMedia.ts) shown when the step is selected; "Set up the model" shows its markdown.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { E2EContext } from './context';
import { QUICK_INPUT, runCommand } from './palette';
import type { StepRunner } from './runner';
import { eventually } from './wait';
import {
  MAX_BYTES,
  WALKTHROUGH_MEDIA_DIR,
  WALKTHROUGH_STEPS,
  type WalkthroughStep,
} from './walkthroughMedia';
import { OPEN_WORKBENCH } from './workbench.steps';

const WALKTHROUGH_TITLE = 'Get Started with OpenHands';
export const WALKTHROUGH_ID = 'openhands-community.openhands-vscode#getStarted';
/** The steps' titles, in order (package.nls.json walkthrough.<step>.title). */
const STEP_TITLES = [
  'Connect to your OpenHands server',
  'Set up the model',
  'Start a conversation',
  'Watch the agent work',
  'Approve an action',
  'Review and apply its changes',
];

/** The title of each step that has a picture (the model step has markdown instead). */
const PICTURE_STEP_TITLES: Record<WalkthroughStep, string> = {
  connect: 'Connect to your OpenHands server',
  newConversation: 'Start a conversation',
  watch: 'Watch the agent work',
  approve: 'Approve an action',
  apply: 'Review and apply its changes',
};

/** Each picture's alt text (package.nls.json walkthrough.<step>.altText), by which the page's image is told apart. */
const ALT_TEXTS = [
  'The OpenHands view in the activity bar, listing sandboxes with their status and conversations with their age.',
  'The New Conversation prompt asking what the agent should do, with a task typed in.',
  "A conversation panel showing the agent's messages, a terminal command with its output, and the message box.",
  'A conversation panel with a terminal command awaiting approval, and Approve and Reject buttons.',
  "The panel's Changes fold listing added, modified and deleted files, with Open All Changes, Apply to Local Repository and Save as Patch buttons.",
];

export function walkthroughSteps(runner: StepRunner, ctx: E2EContext): void {
  const { page } = ctx;

  runner.step(
    'walkthrough: Welcome: Open Walkthrough… lists "Get Started with OpenHands"; its six steps show, each with its picture or text',
    async () => {
      // the editor wide enough for the walkthrough's two columns (steps, picture)
      await runCommand(page, 'View: Close Primary Side Bar');
      await runCommand(page, 'Welcome: Open Walkthrough...');
      const input = page.locator(QUICK_INPUT);
      await input.fill(WALKTHROUGH_TITLE);
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: WALKTHROUGH_TITLE })
        .first()
        .click({ timeout: 10_000 });

      const heading = page.locator('.gettingStartedContainer h2.category-title', {
        hasText: WALKTHROUGH_TITLE,
      });
      await heading.waitFor({ state: 'visible', timeout: 15_000 });
      // the id workbench.action.openWalkthrough takes: <publisher>.<name>#<walkthrough id>
      const id = await heading.getAttribute('x-category-title-for');
      if (id !== WALKTHROUGH_ID) throw new Error(`the walkthrough's id is ${id}, not ${WALKTHROUGH_ID}`);
      const steps = page.locator('.gettingStartedContainer button.getting-started-step');
      const titles = await eventually(
        `the walkthrough's ${STEP_TITLES.length} steps`,
        async () => {
          const shown = (await steps.locator('h3.step-title').allInnerTexts()).map((t) => t.trim());
          return shown.length === STEP_TITLES.length ? shown : undefined;
        },
        {
          lastSeen: async () => (await steps.locator('h3.step-title').allInnerTexts()).join(' | ') || 'none',
        },
      );
      if (titles.join('|') !== STEP_TITLES.join('|'))
        throw new Error(`the walkthrough lists ${JSON.stringify(titles)}`);

      // each step, selected, shows its picture: loaded, not a broken image
      for (const [index, id] of WALKTHROUGH_STEPS.entries()) {
        const file = path.join(WALKTHROUGH_MEDIA_DIR, `${id}.webp`);
        const size = fs.statSync(file).size;
        if (size > MAX_BYTES) throw new Error(`${file} is ${size} bytes`);
        const title = PICTURE_STEP_TITLES[id];
        await steps.filter({ hasText: title }).first().click();
        // one picture at a time, the selected step's (its src is a remote-resource URL: matched by alt)
        const image = page.locator('.gettingStartedContainer .getting-started-media img');
        const shown = () =>
          image.evaluate((img: HTMLImageElement) => ({
            alt: img.alt,
            src: img.src,
            loaded: img.complete && img.naturalWidth > 0,
          }));
        await eventually(
          `the picture of "${title}" (${id}.webp), loaded`,
          async () => {
            const now = await shown();
            return now.alt === ALT_TEXTS[index] && now.loaded ? true : undefined;
          },
          { lastSeen: async () => JSON.stringify(await shown()) },
        );
        await page.waitForTimeout(300); // the media's fade-in
        await ctx.screenshot(`walkthrough-${id}`);
      }
      // the first step again, for the step's own screenshot
      await steps.first().click();
      await page.waitForTimeout(300);
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
