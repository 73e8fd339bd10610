// The preset sandbox specs: the Docker default from the doc (§7) plus a Node.js image so a spec
// picker has something to choose from.
import type { SandboxSpecInfo } from './models';
import { wireTime } from './time';

export const DEFAULT_SPEC_ID = 'ghcr.io/openhands/agent-server:4e2ecd8-python';
export const NODE_SPEC_ID = 'ghcr.io/openhands/agent-server:4e2ecd8-nodejs';

const AGENT_SERVER_ENV: Record<string, string> = {
  OPENVSCODE_SERVER_ROOT: '/openhands/.openvscode-server',
  OH_ENABLE_VNC: 'false',
  LOG_JSON: 'true',
  OH_CONVERSATIONS_PATH: '/workspace/conversations',
  OH_BASH_EVENTS_DIR: '/workspace/bash_events',
};

export function defaultSpecs(createdAtMicros: number): SandboxSpecInfo[] {
  return [DEFAULT_SPEC_ID, NODE_SPEC_ID].map((id) => ({
    id,
    command: ['--port', '8000'],
    created_at: wireTime(createdAtMicros),
    initial_env: { ...AGENT_SERVER_ENV },
    working_dir: '/workspace/project',
  }));
}

/** The spec a sandbox gets when none is named: the first preset, as the real backend does. */
export function defaultSpecId(specs: readonly SandboxSpecInfo[]): string {
  return specs[0]?.id ?? DEFAULT_SPEC_ID;
}
