// Small fetch helpers for the server tests: plain HTTP, deliberately not the project's client.
import { startTestServer, type TestServer, type TestServerOptions } from '../../server';

/** Timings small enough that a whole start walks to READY in well under a second. */
export const FAST_TIMINGS = {
  sandboxStartMs: 30,
  sandboxPauseMs: 20,
  sandboxResumeMs: 20,
  startTaskStepMs: 10,
};

export function startFastServer(options: TestServerOptions = {}): Promise<TestServer> {
  return startTestServer({ ...options, timings: { ...FAST_TIMINGS, ...options.timings } });
}

export interface JsonReply<T> {
  status: number;
  contentType: string;
  body: T;
}

export async function getJson<T>(url: string, init?: RequestInit): Promise<JsonReply<T>> {
  const response = await fetch(url, init);
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    contentType,
    body: (contentType.startsWith('application/json') ? JSON.parse(text) : text) as T,
  };
}

export function postJson<T>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<JsonReply<T>> {
  return getJson<T>(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}
