// What sandboxes, specs and conversations are called wherever they are shown: rows, pickers, messages.
import type { AppConversation, SandboxInfo } from '../api';

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

/** The sandbox's own VS Code (its URL carries a `tkn=` credential: never log or show it whole). */
export function vscodeUrl(sandbox: SandboxInfo): string | undefined {
  return sandbox.exposed_urls?.find((url) => url.name === 'VSCODE')?.url;
}
