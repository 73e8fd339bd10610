// A tiny step runner for UI flows: steps run in order, each is timed, screenshotted and recorded as
// passed or failed. A step whose prerequisite failed is reported as failed ("blocked"), never skipped,
// so a missing view shows up as red in the summary instead of disappearing from it.
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { screenshot } from '../../scripts/vscode/workbench';

export type StepBody = () => Promise<void>;

/**
 * A developer shortcut: only the steps whose name matches this regular expression (case-insensitive)
 * run, with the steps they need: `OPENHANDS_E2E_GREP=^Changes npm run test:e2e`. Unset: every step.
 */
export const E2E_GREP_ENV = 'OPENHANDS_E2E_GREP';

export interface StepOptions {
  /** Names of earlier steps that must have passed. */
  needs?: string[];
}

export interface StepResult {
  name: string;
  passed: boolean;
  error?: string;
  durationMs: number;
  screenshot?: string;
}

interface Step {
  name: string;
  body: StepBody;
  options: StepOptions;
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
}

export class StepRunner {
  private readonly steps: Step[] = [];

  constructor(
    private readonly page: Page,
    private readonly screenshotDir: string,
    private readonly log: (line: string) => void = console.log,
    private readonly grep: string | undefined = process.env[E2E_GREP_ENV],
  ) {}

  step(name: string, body: StepBody, options: StepOptions = {}): void {
    if (this.steps.some((s) => s.name === name)) throw new Error(`duplicate step name: ${name}`);
    this.steps.push({ name, body, options });
  }

  /** The steps the grep selects and, transitively, the ones they need (all of them without a grep). */
  private selected(): Set<string> {
    if (!this.grep) return new Set(this.steps.map((s) => s.name));
    const pattern = new RegExp(this.grep, 'i');
    const chosen = new Set<string>();
    const add = (name: string) => {
      if (chosen.has(name)) return;
      chosen.add(name);
      for (const need of this.steps.find((s) => s.name === name)?.options.needs ?? []) add(need);
    };
    for (const step of this.steps) if (pattern.test(step.name)) add(step.name);
    this.log(`  (${E2E_GREP_ENV}=${this.grep}: ${chosen.size} of ${this.steps.length} steps)`);
    return chosen;
  }

  async run(): Promise<StepResult[]> {
    const results: StepResult[] = [];
    const selected = this.selected();
    for (const [index, step] of this.steps.entries()) {
      if (!selected.has(step.name)) continue;
      const started = Date.now();
      const result: StepResult = { name: step.name, passed: false, durationMs: 0 };
      const blockedBy = (step.options.needs ?? []).filter(
        (need) => !results.find((r) => r.name === need)?.passed,
      );
      if (blockedBy.length > 0) {
        result.error = `blocked: needs ${blockedBy.map((n) => `"${n}"`).join(', ')}, which did not pass`;
      } else {
        try {
          await step.body();
          result.passed = true;
        } catch (error) {
          result.error = error instanceof Error ? error.message.split('\n')[0] : String(error);
        }
        // Every executed step leaves a picture of the workbench as it ended, pass or fail.
        const name = `${String(index + 1).padStart(2, '0')}-${slug(step.name)}${result.passed ? '' : '-FAILED'}`;
        result.screenshot = await screenshot(this.page, path.join(this.screenshotDir, `${name}.png`)).catch(
          () => undefined,
        );
      }
      result.durationMs = Date.now() - started;
      results.push(result);
      this.log(`${result.passed ? '  ✔' : '  ✘'} ${step.name} (${result.durationMs} ms)`);
      if (result.error) this.log(`      ${result.error}`);
    }
    return results;
  }
}

export function stepSummary(results: StepResult[]): string {
  const passed = results.filter((r) => r.passed).length;
  return `${passed} passed, ${results.length - passed} failed`;
}
