// The user, scripted: what each prompt answers is set by the test beforehand, and every prompt asked is
// recorded. A prompt nobody scripted an answer for is dismissed (undefined), as when the user presses
// Escape; an answer the prompt cannot give (no such button or item, a text its validation refuses)
// rejects, so a test cannot pass on a question that was never asked as it thinks.
import type * as vscode from 'vscode';
import { Uri } from './uri';

export type PromptKind = 'information' | 'warning' | 'error' | 'quickPick' | 'inputBox' | 'saveDialog';

export interface Asked {
  kind: PromptKind;
  /** The message; for a quick pick or an input box, its title. */
  message: string;
  /** A modal message's detail line; an input box's prompt; a quick pick's placeholder. */
  detail: string | undefined;
  modal: boolean;
  /** A message's buttons, a quick pick's item labels (in order); an input box's prefilled value. */
  choices: string[];
}

/** A button's title, an item's label or the text typed; undefined dismisses the prompt. */
export type Answer = string | undefined;

type Button = string | vscode.MessageItem;

class Prompts {
  readonly asked: Asked[] = [];
  private script: { kind: PromptKind; answer: Answer }[] = [];

  /** The next prompt of this kind is answered so; answers of one kind are given in the order scripted. */
  answer(kind: PromptKind, answer: Answer): void {
    this.script.push({ kind, answer });
  }

  /** The prompts asked of this kind, in order. */
  of(kind: PromptKind): Asked[] {
    return this.asked.filter((asked) => asked.kind === kind);
  }

  /** Answers scripted but never asked for: a test whose premise did not hold. */
  unused(): string[] {
    return this.script.map(({ kind, answer }) => `${kind} → ${answer ?? '(dismissed)'}`);
  }

  reset(): void {
    this.asked.length = 0;
    this.script = [];
  }

  /** Records the prompt and takes the first answer scripted for its kind. */
  ask(asked: Asked): Answer {
    this.asked.push(asked);
    const index = this.script.findIndex((entry) => entry.kind === asked.kind);
    if (index === -1) return undefined;
    const [entry] = this.script.splice(index, 1);
    return entry?.answer;
  }
}

export const prompts = new Prompts();

/** `showInformationMessage` and its kin: `(message, options?, ...buttons)` or `(message, ...buttons)`. */
export function messagePrompt(kind: 'information' | 'warning' | 'error') {
  return (message: string, ...rest: unknown[]): Promise<Button | undefined> => {
    const [first, ...others] = rest;
    const options = isOptions(first) ? first : undefined;
    const buttons = (options ? others : rest) as Button[];
    const titles = buttons.map((button) => (typeof button === 'string' ? button : button.title));
    const answer = prompts.ask({
      kind,
      message,
      detail: options?.detail,
      modal: options?.modal === true,
      choices: titles,
    });
    if (answer === undefined) return Promise.resolve(undefined);
    const index = titles.indexOf(answer);
    if (index === -1)
      return Promise.reject(new Error(`no button “${answer}” on “${message}”: ${titles.join(', ')}`));
    return Promise.resolve(buttons[index]);
  };
}

function isOptions(value: unknown): value is vscode.MessageOptions {
  return typeof value === 'object' && value !== null && !('title' in value);
}

export async function showQuickPick<T extends string | vscode.QuickPickItem>(
  items: readonly T[] | Thenable<readonly T[]>,
  options: vscode.QuickPickOptions = {},
): Promise<T | undefined> {
  const resolved = await items;
  const labels = resolved.map((item) => (typeof item === 'string' ? item : item.label));
  const answer = prompts.ask({
    kind: 'quickPick',
    message: options.title ?? '',
    detail: options.placeHolder,
    modal: false,
    choices: labels,
  });
  if (answer === undefined) return undefined;
  const pick = (label: string) => {
    const index = labels.indexOf(label);
    if (index === -1) throw new Error(`no item “${label}” in “${options.title ?? ''}”: ${labels.join(', ')}`);
    return resolved[index];
  };
  // a multiple choice answers its labels one a line ("" ticks none), and resolves to the ticked items
  if (options.canPickMany) return (answer === '' ? [] : answer.split('\n').map(pick)) as unknown as T;
  return pick(answer);
}

export async function showInputBox(options: vscode.InputBoxOptions = {}): Promise<string | undefined> {
  const answer = prompts.ask({
    kind: 'inputBox',
    message: options.title ?? '',
    detail: options.prompt,
    modal: false,
    choices: options.value === undefined ? [] : [options.value],
  });
  if (answer === undefined) return undefined;
  // VS Code does not accept what the box's validation refuses
  const verdict = await options.validateInput?.(answer);
  const refusal = typeof verdict === 'string' ? verdict : verdict?.message;
  if (refusal) throw new Error(`the input box “${options.title ?? ''}” refuses “${answer}”: ${refusal}`);
  return answer;
}

/** The save dialog: answered with a file path; its title and the default file's path are recorded. */
export async function showSaveDialog(
  options: vscode.SaveDialogOptions = {},
): Promise<vscode.Uri | undefined> {
  const answer = prompts.ask({
    kind: 'saveDialog',
    message: options.title ?? '',
    detail: options.saveLabel,
    modal: false,
    choices: options.defaultUri ? [options.defaultUri.fsPath] : [],
  });
  return answer === undefined ? undefined : Uri.file(answer);
}
