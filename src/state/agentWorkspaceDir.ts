/**
 * Where a conversation's workspace is on its agent server, as an absolute folder: the archive and the
 * file download need one, and a process sandbox names only `"."`. Plain Node (no vscode import).
 */
import { absoluteWorkspaceDir, type AgentEvent, type AgentServerClient, type GitChange } from '../api';

/** How far into a conversation's stored events its workspace is looked for (its first command, edit). */
const STORED_PAGES_SEARCHED = 5;

/**
 * Named by the server, or read from the agent's events: `held` (an open feed's), else the first
 * stored pages. Undefined when none of them says.
 */
export async function agentWorkspaceDir(
  client: AgentServerClient,
  held: readonly AgentEvent[],
  files: readonly GitChange[],
  signal?: AbortSignal,
): Promise<string | undefined> {
  const info = await client.getConversation({ signal });
  const paths = files.map((file) => file.path);
  const fromFeed = absoluteWorkspaceDir(info, held, paths);
  if (fromFeed) return fromFeed;
  let pageId: string | undefined;
  for (let page = 0; page < STORED_PAGES_SEARCHED; page++) {
    const read = await client.searchEvents({ pageId, limit: 100 }, { signal });
    const found = absoluteWorkspaceDir(info, read.items, paths);
    if (found) return found;
    if (!read.next_page_id) return undefined;
    pageId = read.next_page_id;
  }
  return undefined;
}
