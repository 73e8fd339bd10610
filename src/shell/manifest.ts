/** What the entry reads from its own package.json: the commands it stands in for and the panels it restores. */
export interface EntryManifest {
  commandIds: string[];
  panelViewTypes: string[];
}

export function readEntryManifest(packageJson: unknown): EntryManifest {
  const manifest = isRecord(packageJson) ? packageJson : {};
  const contributes = isRecord(manifest.contributes) ? manifest.contributes : {};
  const commands = Array.isArray(contributes.commands) ? contributes.commands : [];
  const events = Array.isArray(manifest.activationEvents) ? manifest.activationEvents : [];
  const panelPrefix = 'onWebviewPanel:';
  return {
    commandIds: commands.flatMap((entry) =>
      isRecord(entry) && typeof entry.command === 'string' ? [entry.command] : [],
    ),
    panelViewTypes: events.flatMap((event) =>
      typeof event === 'string' && event.startsWith(panelPrefix) ? [event.slice(panelPrefix.length)] : [],
    ),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
