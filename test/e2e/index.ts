// The UI end-to-end flow, in order. Add step groups here; the driver (scripts/vscode/run-e2e.ts) runs them.
import { agentBranchSteps } from './agentBranch.steps';
import { changesSteps } from './changes.steps';
import type { E2EContext } from './context';
import { connectSteps } from './connect.steps';
import { conversationPanelSteps } from './conversationPanel.steps';
import { editorConversationSteps } from './editorConversation.steps';
import { handoffSteps } from './handoff.steps';
import { bringChangesSteps } from './bringChanges.steps';
import { mcpFormSteps } from './mcpForm.steps';
import { modelOfferSteps } from './modelOffer.steps';
import { modelFormSteps } from './modelForm.steps';
import { newConversationSteps } from './newConversation.steps';
import { openHandsViewSteps } from './openhands-view.steps';
import type { StepRunner } from './runner';
import { sidebarStateSteps } from './sidebar-states.steps';
import { steeringSteps } from './steering.steps';
import { themeSteps } from './theme.steps';
import { usageSteps } from './usage.steps';
import { modelPickerSteps } from './modelPicker.steps';
import { plainHttpSteps, trustSteps } from './trust.steps';
import { walkthroughSteps } from './walkthrough.steps';
import { workbenchSteps } from './workbench.steps';

export function defineSteps(runner: StepRunner, ctx: E2EContext): void {
  workbenchSteps(runner, ctx);
  // first: what a new user sees, then back to the seeded server for the rest
  connectSteps(runner, ctx);
  openHandsViewSteps(runner, ctx);
  newConversationSteps(runner, ctx);
  editorConversationSteps(runner, ctx);
  sidebarStateSteps(runner, ctx);
  mcpFormSteps(runner, ctx);
  conversationPanelSteps(runner, ctx);
  usageSteps(runner, ctx);
  agentBranchSteps(runner, ctx);
  modelPickerSteps(runner, ctx);
  steeringSteps(runner, ctx);
  changesSteps(runner, ctx);
  handoffSteps(runner, ctx);
  bringChangesSteps(runner, ctx);
  trustSteps(runner, ctx);
  plainHttpSteps(runner, ctx);
  // it connects to a server of its own, then back to the seeded one
  modelOfferSteps(runner, ctx);
  // late: it changes the seeded server's model, which no step after it reads
  modelFormSteps(runner, ctx);
  // after the steps that take its pictures
  walkthroughSteps(runner, ctx);
  // last: it leaves the workbench in a dark theme
  themeSteps(runner, ctx);
}
