import type { AppConversation, GitChange, SandboxInfo } from '../api';

/** What a row of the OpenHands views stands for. Commands receive these (or plain id strings). */
export type OpenHandsNode =
  SandboxNode | ConversationNode | LoadMoreNode | ChangesNode | ChangedFileNode | NoticeNode;

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

/** "Changes" under a conversation: the files its agent changed. */
export interface ChangesNode {
  kind: 'changes';
  conversation: AppConversation;
  underSandbox?: string;
}

/** One file the agent changed; opens its diff. */
export interface ChangedFileNode {
  kind: 'changedFile';
  conversation: AppConversation;
  change: GitChange;
  /** The list's version the row was drawn from (the diff's URIs carry it). */
  version: number;
  underSandbox?: string;
}

/** A line of text in place of rows: why there are none, or what went wrong. */
export interface NoticeNode {
  kind: 'notice';
  id: string;
  text: string;
  icon?: string;
}

export interface LoadMoreNode {
  kind: 'loadMore';
}
