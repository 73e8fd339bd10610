// Minimal stand-ins for a sandbox's exposed services, so "open VS Code" links lead somewhere
// meaningful in demos. The real services run inside the sandbox container.
import type { ServerContext } from '../context';
import { json, text, type Reply } from '../http';
import type { Route, RouteRequest } from '../route';
import { findSandbox } from '../state';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function vscodePage(request: RouteRequest, context: ServerContext): Reply {
  const sandbox = findSandbox(context.state, request.params['sandboxId'] ?? '');
  if (!sandbox || sandbox.status !== 'RUNNING') return text('Sandbox is not running', 503);
  const token = request.query['tkn']?.[0];
  if (token !== sandbox.session_api_key) return text('Forbidden', 403);
  const folder = request.query['folder']?.[0] ?? '';
  return text(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>OpenVSCode Server</title></head>` +
      `<body><h1>OpenVSCode Server (emulated)</h1><p>Sandbox <code>${escapeHtml(sandbox.id)}</code>, ` +
      `folder <code>${escapeHtml(folder)}</code></p></body></html>`,
    200,
    'text/html; charset=utf-8',
  );
}

function agentHealth(request: RouteRequest, context: ServerContext): Reply {
  const sandbox = findSandbox(context.state, request.params['sandboxId'] ?? '');
  return sandbox?.status === 'RUNNING' ? json('OK') : text('Sandbox is not running', 503);
}

export const sandboxPageRoutes: Route[] = [
  { method: 'GET', pattern: /^\/__sandboxes\/(?<sandboxId>[^/]+)\/vscode\/$/, handle: vscodePage },
  {
    method: 'GET',
    pattern: /^\/__sandboxes\/(?<sandboxId>[^/]+)\/agent-server\/health$/,
    handle: agentHealth,
  },
];
