// What the exports probe records, shared by the probe (inside VS Code) and the e2e step (outside it).

export const PROBE_FILE_ENV = 'OPENHANDS_E2E_PROBE_FILE';

export interface ProbeRecord {
  found: boolean;
  exportsType: string;
  exportedNames: string[];
  error?: string;
}
