// The workbench itself: it must load with our extension in development mode before anything else.
import { waitForWorkbench } from '../../scripts/vscode/workbench';
import type { E2EContext } from './context';
import type { StepRunner } from './runner';
import { eventually } from './wait';

export const OPEN_WORKBENCH = 'open the workbench with the extension in development mode';

export function workbenchSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(OPEN_WORKBENCH, async () => {
    await ctx.page.goto(ctx.workbenchUrl);
    await waitForWorkbench(ctx.page);
    await eventually(
      'the "[Extension Development Host]" window title',
      async () => ((await ctx.page.title()).includes('[Extension Development Host]') ? true : undefined),
      { timeoutMs: 15_000, lastSeen: () => ctx.page.title() },
    );
  });
}
