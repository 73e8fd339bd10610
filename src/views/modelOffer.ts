// "Set Up the Model…", offered wherever a flow finds the server's agent without a usable model: the
// words that say so, and the one way each offer asks for the Model page (`openhands.setUpModel`,
// named by id: its page is built elsewhere).
import * as vscode from 'vscode';
import type { Log } from '../core/log';
import type { NoticeLink } from '../core/flowNotice';
import type { ModelCheck } from '../state/modelCheck';

export const SET_UP_MODEL_COMMAND = 'openhands.setUpModel';

/** The label every offer shows. */
export function setUpModelLabel(): string {
  return vscode.l10n.t('Set Up the Model…');
}

/** The offer as a link in a notice's text. */
export function setUpModelLink(): NoticeLink {
  return { label: setUpModelLabel(), command: SET_UP_MODEL_COMMAND, args: [] };
}

/** Why no conversation would get an answer, in one sentence; undefined when nothing is missing. */
export function missingModelText(check: ModelCheck): string | undefined {
  switch (check.readiness) {
    case 'no-settings':
    case 'no-model':
      return vscode.l10n.t('It has no model yet: a conversation would wait for ever.');
    case 'no-key':
      return check.model
        ? vscode.l10n.t(
            'Its model {0} has no API key: a conversation would wait for ever.',
            // the model name is what the server stored: one short line of plain text
            plainName(check.model),
          )
        : vscode.l10n.t('Its model has no API key: a conversation would wait for ever.');
    default:
      return undefined;
  }
}

/** A model name as the server stored it, bounded and on one line. */
export function plainName(model: string): string {
  const line = model.replace(/[\s\p{Cc}]+/gu, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Asks for the Model page. Every offer that is a button goes through here, so the extension's test
 * API can see that the page was asked for (`asked`) without the command being registered.
 */
export class ModelSetupOffer {
  private askedCount = 0;

  constructor(private readonly log: Log) {}

  /** How many times an offer asked for the Model page. */
  get asked(): number {
    return this.askedCount;
  }

  async open(): Promise<void> {
    this.askedCount += 1;
    try {
      await vscode.commands.executeCommand(SET_UP_MODEL_COMMAND);
    } catch (error) {
      this.log.warn(`${SET_UP_MODEL_COMMAND} did not run: ${error instanceof Error ? error.message : error}`);
    }
  }
}
