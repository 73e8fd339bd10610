// The workbench itself: it must load with our extension in development mode before anything else.
import type { Page } from 'playwright-core';
import { waitForWorkbench } from '../../scripts/vscode/workbench';
import type { E2EContext } from './context';
import type { StepRunner } from './runner';
import { eventually } from './wait';

export const OPEN_WORKBENCH = 'open the workbench with the extension in development mode';

/** Loads the workbench and waits until it runs our extension in development mode. */
export async function openExtensionWorkbench(page: Page, workbenchUrl: string): Promise<void> {
  await page.goto(workbenchUrl);
  await waitForWorkbench(page);
  await eventually(
    'the "[Extension Development Host]" window title',
    async () => ((await page.title()).includes('[Extension Development Host]') ? true : undefined),
    { timeoutMs: 15_000, lastSeen: () => page.title() },
  );
}

export function workbenchSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(OPEN_WORKBENCH, () => openExtensionWorkbench(ctx.page, ctx.workbenchUrl));
}
