// Drives the seeded test server from inside the extension host through its /__control routes.
import { testServerUrl } from './env';

export interface FaultRule {
  kind: 'latency' | 'status' | 'rate_limit' | 'malformed_json' | 'html' | 'reset' | 'hang' | 'drift';
  match?: { method?: string; path?: string; pathRegex?: string };
  times?: number;
  ms?: number;
  status?: number;
  body?: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string>;
}

async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${testServerUrl()}/__control/${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} /__control/${path}: HTTP ${response.status} ${await response.text()}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

export const server = {
  reset: () => control('POST', 'reset'),
  addFault: (rule: FaultRule) => control('POST', 'faults', rule),
  clearFaults: () => control('DELETE', 'faults'),
  failNextStart: (detail: string) => control('POST', 'fail-next-start', { detail, count: 1 }),
  clearRequests: () => control('DELETE', 'requests'),
  requests: async (): Promise<RecordedRequest[]> => {
    const reply = (await control('GET', 'requests')) as RecordedRequest[] | { requests: RecordedRequest[] };
    return Array.isArray(reply) ? reply : reply.requests;
  },
};
