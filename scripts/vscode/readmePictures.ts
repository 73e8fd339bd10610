// The README's pictures are screenshots the e2e run takes: after a full run that passed, the chosen ones
// are copied into docs/images/, so the pictures show what the extension does today, never an old build.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, SCREENSHOTS_DIR } from './paths';

export const README_IMAGES_DIR = path.join(ROOT, 'docs', 'images');

/** docs/images/<key>.png ← the e2e step's `ctx.screenshot(<value>)`. */
export const README_PICTURES: Readonly<Record<string, string>> = {
  'connect-choices': 'connect-choices',
  'connect-wrong-key': 'connect-wrong-key',
  tree: 'changes-tree-light',
  'panel-light': 'conversation-panel-light',
  'panel-dark': 'conversation-panel-dark',
  'approval-light': 'steer-approval-light',
  'approval-dark': 'steer-approval-dark',
  diff: 'changes-diff-updated',
  applied: 'changes-applied',
  'mcp-form': 'mcp-form-check-reachable',
  browser: 'conversation-panel-browser-steps',
  'model-setup-light': 'model-setup-light',
  'model-setup-dark': 'model-setup-dark',
  'model-picker-light': 'model-picker-light',
  'model-picker-dark': 'model-picker-dark',
  'model-offer-light': 'model-offer-light',
  'model-offer-dark': 'model-offer-dark',
  'model-failed-light': 'model-failed-light',
  'model-failed-dark': 'model-failed-dark',
  'agent-branch-pr-light': 'agent-branch-pr-light',
  'agent-branch-pr-dark': 'agent-branch-pr-dark',
  'handed-over-light': 'handed-over-light',
  'handed-over-dark': 'handed-over-dark',
  'handoff-choice': 'handoff-choice',
};

/** Copies the README's pictures from this run's screenshots; returns the ones missing (a step renamed one). */
export function publishReadmePictures(): string[] {
  fs.mkdirSync(README_IMAGES_DIR, { recursive: true });
  const missing: string[] = [];
  for (const [picture, shot] of Object.entries(README_PICTURES)) {
    const source = path.join(SCREENSHOTS_DIR, 'e2e', `extra-${shot}.png`);
    if (!fs.existsSync(source)) {
      missing.push(shot);
      continue;
    }
    fs.copyFileSync(source, path.join(README_IMAGES_DIR, `${picture}.png`));
  }
  return missing;
}
