// The "newer server" fault: unknown extra fields on every object and enum values this client has
// never seen, to prove the client tolerates forward-compatible changes.

/** Replacement values per enum-typed field name. */
const UNKNOWN_ENUM_VALUES: Record<string, string> = {
  sandbox_status: 'HIBERNATING',
  execution_status: 'thinking',
  trigger: 'teams',
  git_provider: 'azure_devops',
  agent_type: 'research',
};

/** `status` means a start-task status on tasks and a sandbox status everywhere else. */
function unknownStatus(owner: Record<string, unknown>): string {
  return 'app_conversation_id' in owner ? 'CLONING_SUBMODULES' : 'HIBERNATING';
}

export function applyDrift(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(applyDrift);
  if (typeof body !== 'object' || body === null) return body;
  const owner = body as Record<string, unknown>;
  const drifted: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(owner)) {
    const replacement = field === 'status' ? unknownStatus(owner) : UNKNOWN_ENUM_VALUES[field];
    drifted[field] = typeof value === 'string' && replacement !== undefined ? replacement : applyDrift(value);
  }
  drifted['x_newer_server_field'] = 'added by a newer server';
  drifted['capabilities'] = { future_flag: true };
  return drifted;
}
