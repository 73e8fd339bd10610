import type { AppConversation, SandboxInfo, SandboxSpecInfo } from '../api';

/** What a row of the OpenHands views stands for. Commands receive these (or plain id strings). */
export type OpenHandsNode = SandboxNode | ConversationNode | LoadMoreNode;

export interface SandboxNode {
  kind: 'sandbox';
  sandbox: SandboxInfo;
}

export interface ConversationNode {
  kind: 'conversation';
  conversation: AppConversation;
  /** Set when shown under its sandbox, so the row id differs from the one in the Conversations view. */
  underSandbox?: string;
}

export interface LoadMoreNode {
  kind: 'loadMore';
}

/** A row of the Sandbox Specs view. */
export interface SpecNode {
  kind: 'spec';
  spec: SandboxSpecInfo;
  /** The first spec the server lists: what a sandbox started without a spec gets. */
  isDefault: boolean;
}
