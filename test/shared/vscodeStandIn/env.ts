// `vscode.env`: a clipboard in memory, and the links the code asked the system to open.
import type { Uri } from './uri';

export const envRecord = { clipboard: '', opened: [] as string[] };

export const env = {
  clipboard: {
    readText: (): Promise<string> => Promise.resolve(envRecord.clipboard),
    writeText: (value: string): Promise<void> => {
      envRecord.clipboard = value;
      return Promise.resolve();
    },
  },
  openExternal: (target: Uri): Promise<boolean> => {
    envRecord.opened.push(target.toString());
    return Promise.resolve(true);
  },
  language: 'en',
  appName: 'Visual Studio Code',
  uriScheme: 'vscode',
};

export function resetEnv(): void {
  envRecord.clipboard = '';
  envRecord.opened.length = 0;
}
