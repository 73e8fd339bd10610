/**
 * Where the agent's workspace is, learnt as the panel goes, so that a file edit's row shows its path
 * relative to it: certain once the changes list knows it (the server's, or an edit of a listed file),
 * else read from the folder the agent's first command ran in. No vscode import.
 */
import { absoluteWorkspaceDir, relativeToWorkspace } from '../../../api/agentServer/workspace';
import type { EventLogChange } from '../../../api/agentServer/eventLog';
import type { AgentEvent } from '../../../api/agentServer/events';
import { isRecord } from '../../../api/records';
import type { Row } from '../shared/rows';

export class WorkspaceFolder {
  private folder: string | undefined;
  /** Whether `folder` is certain (the server's, or an edit of a listed file) or read from a command. */
  private certain = false;

  constructor(
    /** The folder the changes list knows, once it does. */
    private readonly known: () => string | undefined,
    private readonly events: () => readonly AgentEvent[],
  ) {}

  /** Whether the workspace's folder just became known (or changed): then every row shows anew. */
  learn(): boolean {
    if (this.certain) return false;
    const before = this.folder;
    const known = this.known();
    if (known) {
      this.folder = known;
      this.certain = true;
    } else {
      // a paused sandbox cannot say: the folder the agent's first command ran in (as the patch reads it)
      this.folder ??= absoluteWorkspaceDir({ id: '', execution_status: null, title: null }, this.events());
    }
    return this.folder !== before;
  }

  /** A file edit's path as the user knows it: relative to the workspace, absolute only outside it. */
  relative(row: Row): Row {
    if (row.kind !== 'action' || !row.edit) return row;
    const path = relativeToWorkspace(row.edit.path, this.folder);
    return path === row.edit.path ? row : { ...row, edit: { ...row.edit, path } };
  }
}

/** Whether a batch holds a file edit's or a command's result (what can tell the workspace's folder). */
export function hasWorkspaceHint(change: EventLogChange): boolean {
  const hints = (event: AgentEvent) => {
    const observation = event['observation'];
    return (
      event.kind === 'ObservationEvent' &&
      isRecord(observation) &&
      (typeof observation['path'] === 'string' || isRecord(observation['metadata']))
    );
  };
  return change.appended.some(hints) || change.prepended.some(hints);
}
