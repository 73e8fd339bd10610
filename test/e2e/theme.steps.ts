// A dark theme: the tree and the form take their colours from the theme, so both must stay legible.
import type { Locator } from 'playwright-core';
import { type ColorTheme, setColorTheme } from './colorTheme';
import type { E2EContext } from './context';
import { EDIT_COMMAND_TITLE, waitForForm } from './mcpForm';
import { openOpenHandsView } from './openhands-view';
import { runCommand } from './palette';
import type { StepRunner } from './runner';
import { eventually } from './wait';
import { OPEN_WORKBENCH } from './workbench.steps';

const DARK_THEME: ColorTheme = 'Dark Modern';

/** Relative luminance (0 black … 1 white) of a computed `rgb()`/`rgba()` colour. */
function luminance(cssColor: string): number {
  const [r = 0, g = 0, b = 0] = (cssColor.match(/[\d.]+/g) ?? []).map(Number);
  const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio between an element's text colour and a background colour. */
async function contrast(element: Locator, background: string): Promise<number> {
  const color = await element.evaluate((el) => getComputedStyle(el).color);
  const [light, dark] = [luminance(color), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

export function themeSteps(runner: StepRunner, ctx: E2EContext): void {
  runner.step(
    `dark theme (${DARK_THEME}): the tree and the form follow the theme colours`,
    async () => {
      await setColorTheme(ctx.page, DARK_THEME);

      await runCommand(ctx.page, 'View: Close All Editors');
      await openOpenHandsView(ctx.page);
      const sidebar = ctx.page.locator('.part.sidebar');
      const sidebarBackground = await sidebar.evaluate((el) => getComputedStyle(el).backgroundColor);
      if (luminance(sidebarBackground) > 0.1) throw new Error(`sidebar is not dark: ${sidebarBackground}`);
      const row = sidebar.locator('.monaco-list-row .label-name').first();
      const rowContrast = await contrast(row, sidebarBackground);
      if (rowContrast < 4.5) throw new Error(`tree label contrast ${rowContrast.toFixed(1)} < 4.5`);
      await ctx.screenshot('dark-theme-sidebar');

      await runCommand(ctx.page, EDIT_COMMAND_TITLE);
      const form = await waitForForm(ctx.page);
      const body = form.locator('body');
      const formBackground = await eventually('a dark form background', async () => {
        const background = await body.evaluate((el) => getComputedStyle(el).backgroundColor);
        return luminance(background) < 0.1 ? background : undefined;
      });
      const heading = form.locator('h1, h2').first();
      const headingContrast = await contrast(heading, formBackground);
      if (headingContrast < 4.5) throw new Error(`form heading contrast ${headingContrast.toFixed(1)} < 4.5`);
    },
    { needs: [OPEN_WORKBENCH] },
  );
}
