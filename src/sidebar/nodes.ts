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

export const SANDBOX_ID_PREFIX = 'oh-agent-server-';

/** The distinctive part of a sandbox id (Docker ids share a long prefix). */
export function shortSandboxId(id: string): string {
  return id.startsWith(SANDBOX_ID_PREFIX) ? id.slice(SANDBOX_ID_PREFIX.length) : id;
}

/** `ghcr.io/openhands/agent-server:4e2ecd8-python` → `agent-server:4e2ecd8-python` */
export function shortSpec(specId: string): string {
  return specId.split('/').at(-1) ?? specId;
}

export function conversationTitle(conversation: AppConversation): string {
  return conversation.title?.trim() || `Conversation ${conversation.id.slice(0, 8)}`;
}
