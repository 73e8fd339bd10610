/**
 * New Conversation's model step: which saved LLM profile the conversation starts on, asked only when
 * the server has two or more (OpenHands 1.11's `/api/v1/settings/profiles`; older servers have none:
 * no step). The active profile leads; the last choice in this workspace is the next default (its name
 * only, in workspaceState: a profile holds no secret there).
 *
 * The start request cannot carry a profile: on 1.11 `llm_model` replaces only the model's name (the
 * settings' key and base URL stay) and `agent_profile_id` names a Cloud agent profile, which the local
 * settings store ignores. So a profile other than the active one is applied the way the server
 * switches a running conversation: `switch_profile` right after the start, before the first message.
 */
import * as vscode from 'vscode';
import type { ModelSetupApi } from '../api/modelSetup';
import type { ProfileList } from '../api/models/modelSetup';
import { messageOf } from '../api/errors';

/** More than the server keeps (`MAX_PROFILES_PER_USER`, ten): a longer list is cut. */
const MAX_PROFILE_CHOICES = 50;

/** workspaceState key: the profile name chosen last in this workspace. */
export const PROFILE_MEMORY_KEY = 'openhands.newConversation.profile';

export type ProfileStep =
  /** Nothing to choose (no profiles route, fewer than two profiles, or they could not be read). */
  | { kind: 'none' }
  | { kind: 'cancelled' }
  /** `switchTo`: the profile to switch to after the start; undefined when the active one was chosen. */
  | { kind: 'chosen'; profile: string; switchTo: string | undefined };

export interface ProfileChoice {
  name: string;
  model: string | null;
  active: boolean;
}

/**
 * The choices in the order shown: the default first (so it is the one selected), then the active
 * profile, then the rest in the server's order. The default is the remembered name while the server
 * still has it, else the active profile, else the server's first.
 */
export function profileChoices(list: ProfileList, remembered: string | undefined): ProfileChoice[] {
  // the server keeps ten at most: a longer list is a hostile one, cut
  const choices = list.profiles.slice(0, MAX_PROFILE_CHOICES).map((profile) => ({
    name: profile.name,
    model: profile.model,
    active: profile.name === list.active_profile,
  }));
  const rank = (choice: ProfileChoice): number => (choice.name === remembered ? 0 : choice.active ? 1 : 2);
  return choices
    .map((choice, index) => ({ choice, index }))
    .sort((a, b) => rank(a.choice) - rank(b.choice) || a.index - b.index)
    .map(({ choice }) => choice);
}

export interface ProfileStepDeps {
  modelSetup: Pick<ModelSetupApi, 'listProfiles'>;
  workspaceState: vscode.Memento;
  warn(message: string): void;
}

/**
 * Asks which profile to start on; `given` (a caller's argument) skips the question. A list that cannot
 * be read does not stop the start: the conversation starts on the server's settings, as before.
 */
export async function askForProfile(deps: ProfileStepDeps, given?: string): Promise<ProfileStep> {
  let list: ProfileList;
  try {
    const listed = await deps.modelSetup.listProfiles();
    if (!listed.offered) return { kind: 'none' };
    list = listed.value;
  } catch (error) {
    deps.warn(`New conversation: the saved model profiles could not be read: ${messageOf(error)}`);
    return { kind: 'none' };
  }
  if (given !== undefined) {
    if (!list.profiles.some((profile) => profile.name === given))
      throw new Error(vscode.l10n.t('The server has no saved model profile named “{0}”.', given));
    return chosen(given, list);
  }
  if (list.profiles.length < 2) return { kind: 'none' };
  const choices = profileChoices(list, deps.workspaceState.get<string>(PROFILE_MEMORY_KEY));
  const picked = await vscode.window.showQuickPick(
    choices.map((choice) => ({
      label: choice.name,
      description: choice.active
        ? vscode.l10n.t('{0} · active', choice.model ?? vscode.l10n.t('the settings’ model'))
        : (choice.model ?? undefined),
      choice,
    })),
    {
      title: vscode.l10n.t('New Conversation: model'),
      placeHolder: vscode.l10n.t('Which saved model profile should the agent use?'),
      ignoreFocusOut: true,
    },
  );
  if (!picked) return { kind: 'cancelled' };
  await deps.workspaceState.update(PROFILE_MEMORY_KEY, picked.choice.name);
  return chosen(picked.choice.name, list);
}

function chosen(profile: string, list: ProfileList): ProfileStep {
  return { kind: 'chosen', profile, switchTo: profile === list.active_profile ? undefined : profile };
}
