// The "Get Started with OpenHands" walkthrough and the Marketplace entry, as VS Code loaded them from
// the manifest: localized strings, pictures that exist and stay small, the icon, and
// workbench.action.openWalkthrough with the walkthrough's id. (The e2e run looks at the page.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './env';
import { openHandsExtension } from './manifest';

interface WalkthroughStep {
  id: string;
  title: string;
  description: string;
  media: { image?: string; altText?: string; markdown?: string };
  completionEvents?: string[];
}

interface Walkthrough {
  id: string;
  title: string;
  steps: WalkthroughStep[];
}

function walkthroughs(): Walkthrough[] {
  const json = openHandsExtension().packageJSON as { contributes?: { walkthroughs?: Walkthrough[] } };
  return json.contributes?.walkthroughs ?? [];
}

describe('walkthrough and Marketplace entry (issue 23, items 4 and 5)', () => {
  it('one walkthrough, its six steps localized, each with a picture under 40 KB or its markdown', () => {
    const [walkthrough, ...others] = walkthroughs();
    assert.ok(walkthrough, 'the manifest contributes a walkthrough');
    assert.equal(others.length, 0);
    assert.equal(walkthrough.title, 'Get Started with OpenHands');
    assert.deepEqual(
      walkthrough.steps.map((step) => step.id),
      ['connect', 'model', 'newConversation', 'watch', 'approve', 'apply'],
    );
    const root = openHandsExtension().extensionUri.fsPath;
    for (const step of walkthrough.steps) {
      assert.match(step.description, /\]\(command:[\w.]+/, `step ${step.id} has a button`);
      if (step.media.markdown) {
        for (const text of [step.title, step.description])
          assert.ok(text && !/^%.*%$/.test(text), `step ${step.id}: "${text}" is not localized`);
        assert.ok(fs.existsSync(path.join(root, step.media.markdown)), `${step.media.markdown} exists`);
        continue;
      }
      for (const text of [step.title, step.description, step.media.altText ?? ''])
        assert.ok(text && !/^%.*%$/.test(text), `step ${step.id}: "${text}" is not localized`);
      const image = path.join(root, step.media.image ?? '');
      assert.ok(fs.existsSync(image), `${step.media.image} exists`);
      assert.ok(fs.statSync(image).size <= 40_000, `${step.media.image} is at most 40 KB`);
    }
  });

  it('"Set up the model" follows Connect: its button asks for the Model page, it is done when the server is ready (issue 36)', () => {
    const steps = walkthroughs()[0]?.steps ?? [];
    const model = steps.find((step) => step.id === 'model');
    assert.ok(model, 'the walkthrough has a model step');
    assert.equal(steps.indexOf(model), steps.findIndex((step) => step.id === 'connect') + 1);
    assert.equal(model.title, 'Set up the model');
    assert.match(model.description, /\[Set Up the Model…\]\(command:openhands\.setUpModel\)/);
    assert.deepEqual(model.completionEvents, ['onContext:openhands.modelReady']);
    const markdown = fs.readFileSync(
      path.join(openHandsExtension().extensionUri.fsPath, model.media.markdown ?? ''),
      'utf8',
    );
    // the page says when the step ticks itself, by the key that ticks it
    assert.match(markdown, /openhands\.modelReady/);
    assert.match(markdown, /Start Anyway/);
  });

  it('the icon is a 128×128 PNG; the description and the untrusted-workspace note are localized', () => {
    const json = openHandsExtension().packageJSON as {
      icon?: string;
      description?: string;
      categories?: string[];
      capabilities?: { untrustedWorkspaces?: { supported?: unknown; description?: string } };
    };
    const png = fs.readFileSync(path.join(openHandsExtension().extensionUri.fsPath, json.icon ?? ''));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(png.length < 16_000, `the icon is ${png.length} bytes`);
    assert.ok(json.categories?.includes('AI'));
    assert.match(json.description ?? '', /OpenHands coding agents/);
    assert.equal(json.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.match(json.capabilities?.untrustedWorkspaces?.description ?? '', /Restricted Mode/);
  });

  it('workbench.action.openWalkthrough opens it by <publisher>.<name>#<id>', async () => {
    const id = `${EXTENSION_ID}#${walkthroughs()[0]?.id}`;
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', id, false);
    try {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      assert.ok(tab, 'a tab opened');
      assert.match(tab.label, /Welcome|Walkthrough/);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });
});
