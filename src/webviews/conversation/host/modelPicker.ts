/**
 * The panel's model picker: the server's saved LLM profiles, the one the conversation runs on marked,
 * and the choice sent as `switch_profile` (OpenHands 1.11). The agent server then stores the new agent,
 * which the feed reads into the header and the transcript marks (`api/agentServer/agentLlm.ts`).
 * Failures are thrown in words for the control's reply. No vscode import: the pick is given.
 */
import type { ModelSetupApi } from '../../../api/modelSetup';
import { ApiError, messageOf } from '../../../api/errors';
import type { ProfileSummary } from '../../../api/models/modelSetup';

/** One profile as the pick shows it. */
export interface ModelChoice {
  profile: string;
  model: string | null;
  /** The conversation runs on this profile's model now. */
  current: boolean;
}

export interface ModelPickerDeps {
  conversationId: string;
  /** The client of the moment's model setup (throws when not connected). */
  modelSetup(): Pick<ModelSetupApi, 'listProfiles' | 'switchProfile'>;
  /** The model the header shows now, if known. */
  currentModel(): string | null;
  /** Shows the choices; undefined when the user dismissed them. */
  pick(choices: readonly ModelChoice[]): Promise<ModelChoice | undefined>;
}

/** Said when the server has no profile routes (before 1.11). */
export const NO_PROFILES_ROUTE =
  'This server has no saved model profiles (OpenHands 1.11 added them), so the model cannot be switched from VS Code.';
export const NO_PROFILES =
  'This server has no saved model profiles yet. Save one on the Model page, then switch to it here.';
export const SANDBOX_PAUSED =
  'The model was not switched: the sandbox is paused. Resume the sandbox, then switch the model.';

/** `switched`: the server took the choice; `kept`: nothing chosen, or the one in use chosen again. */
export async function pickAndSwitchModel(deps: ModelPickerDeps): Promise<'switched' | 'kept'> {
  const setup = deps.modelSetup();
  const listed = await setup.listProfiles();
  if (!listed.offered) throw new Error(NO_PROFILES_ROUTE);
  const profiles = listed.value.profiles;
  if (profiles.length === 0) throw new Error(NO_PROFILES);
  const chosen = await deps.pick(modelChoices(profiles, deps.currentModel()));
  if (!chosen || chosen.current) return 'kept';
  try {
    const switched = await setup.switchProfile(deps.conversationId, chosen.profile);
    if (!switched.offered) throw new Error(NO_PROFILES_ROUTE);
  } catch (error) {
    throw new Error(switchFailure(error, chosen.profile));
  }
  return 'switched';
}

/** The server keeps ten at most (`MAX_PROFILES_PER_USER`); a longer list is a hostile one, cut. */
export const MAX_PROFILE_CHOICES = 50;

/** In the server's order; the one whose model the conversation runs on is marked current. */
export function modelChoices(
  profiles: readonly ProfileSummary[],
  currentModel: string | null,
): ModelChoice[] {
  return profiles.slice(0, MAX_PROFILE_CHOICES).map((profile) => ({
    profile: profile.name,
    model: profile.model,
    current: currentModel !== null && profile.model === currentModel,
  }));
}

function switchFailure(error: unknown, profile: string): string {
  if (!(error instanceof ApiError)) return messageOf(error);
  // app_conversation_router.py: 409 only while the sandbox is paused
  if (error.status === 409) return SANDBOX_PAUSED;
  if (error.kind === 'not_found' && error.serverMessage?.startsWith('Profile'))
    return `The model was not switched: the server has no profile named “${profile}” any more.`;
  if (error.status === 502)
    return 'The model was not switched: the sandbox’s agent server refused the new model (the log has the details).';
  return `The model was not switched: ${error.message}`;
}
