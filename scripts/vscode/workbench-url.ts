// The workbench URL that loads an extension in development mode (and optionally runs its test suite).
// code-server has no --extensionDevelopmentPath flag; the web workbench reads both from `payload`.

export interface WorkbenchUrlOptions {
  /** `http://127.0.0.1:PORT` of the code-server. */
  baseUrl: string;
  folder: string;
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
}

/** Paths are on the code-server's file system, addressed through its remote authority. */
function remoteUri(baseUrl: string, absolutePath: string): string {
  return `vscode-remote://${new URL(baseUrl).host}${absolutePath}`;
}

export function workbenchUrl(options: WorkbenchUrlOptions): string {
  const payload: [string, string][] = [];
  if (options.extensionDevelopmentPath) {
    payload.push(['extensionDevelopmentPath', remoteUri(options.baseUrl, options.extensionDevelopmentPath)]);
  }
  if (options.extensionTestsPath) {
    payload.push(['extensionTestsPath', remoteUri(options.baseUrl, options.extensionTestsPath)]);
  }
  const url = new URL(options.baseUrl);
  url.searchParams.set('folder', options.folder);
  if (payload.length > 0) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}
