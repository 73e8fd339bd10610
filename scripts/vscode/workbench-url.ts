// The workbench URL that loads an extension in development mode (and optionally runs its test suite).
// code-server has no --extensionDevelopmentPath flag; the web workbench reads both from `payload`.

export interface WorkbenchUrlOptions {
  /** `http://127.0.0.1:PORT` of the code-server. */
  baseUrl: string;
  /** The folder to open, or (with `workspace`) none: a `.code-workspace` file names the folders instead. */
  folder?: string;
  /** A `.code-workspace` file on the code-server's machine (its folders may be on any file system). */
  workspace?: string;
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
  if (options.workspace) url.searchParams.set('workspace', options.workspace);
  else if (options.folder) url.searchParams.set('folder', options.folder);
  if (payload.length > 0) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}
