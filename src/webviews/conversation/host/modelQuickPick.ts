/**
 * The model picker's choices in VS Code's quick pick: each saved profile with its model, the one the
 * conversation runs on checked and first in focus.
 */
import * as vscode from 'vscode';
import type { ModelChoice } from './modelPicker';

type ChoiceItem = vscode.QuickPickItem & { choice: ModelChoice };

export async function pickModel(choices: readonly ModelChoice[]): Promise<ModelChoice | undefined> {
  const items: ChoiceItem[] = choices.map((choice) => ({
    label: `${choice.current ? '$(check)' : '$(blank)'} ${choice.profile}`,
    description: choice.model ?? vscode.l10n.t('the settings’ model'),
    detail: choice.current ? vscode.l10n.t('The conversation runs on this model now.') : undefined,
    choice,
  }));
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Switch the Conversation’s Model'),
    placeHolder: vscode.l10n.t('The agent uses the chosen profile’s model from its next step on'),
  });
  return picked?.choice;
}
