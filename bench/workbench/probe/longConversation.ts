// Opens the long conversation the driver seeded, through the command a click on its row runs, and
// says when (epoch ms: the driver, another process, reads the page's first painted row by the same clock).
import * as vscode from 'vscode';
import { LONG_CONVERSATION_ENV } from './results';

export async function openLongConversation(): Promise<number | undefined> {
  const conversationId = process.env[LONG_CONVERSATION_ENV];
  if (!conversationId) return undefined;
  const openedAt = Date.now();
  await vscode.commands.executeCommand('openhands.openConversation', conversationId);
  return openedAt;
}
