// Where a sandbox's services "live". Real Docker sandboxes get one host port per service; this server
// has one port, so each service gets a path under `/__sandboxes/<id>/` on it instead.
import type { ExposedUrl } from './models';

export function sandboxServiceBase(baseUrl: string, sandboxId: string, service: string): string {
  return `${baseUrl}/__sandboxes/${encodeURIComponent(sandboxId)}/${service}`;
}

export function agentServerUrl(baseUrl: string, sandboxId: string): string {
  return sandboxServiceBase(baseUrl, sandboxId, 'agent-server');
}

/** The four ports the Docker backend exposes; VSCODE carries the key and folder like the real one. */
export function exposedUrlsFor(
  baseUrl: string,
  sandboxId: string,
  sessionApiKey: string,
  workingDir: string,
): ExposedUrl[] {
  return [
    { name: 'AGENT_SERVER', url: agentServerUrl(baseUrl, sandboxId) },
    {
      name: 'VSCODE',
      url: `${sandboxServiceBase(baseUrl, sandboxId, 'vscode')}/?tkn=${sessionApiKey}&folder=${workingDir}`,
    },
    { name: 'WORKER_1', url: sandboxServiceBase(baseUrl, sandboxId, 'worker-1') },
    { name: 'WORKER_2', url: sandboxServiceBase(baseUrl, sandboxId, 'worker-2') },
  ];
}
