// Driving a conversation panel: its webview (nested iframes), its rows and its header, and the
// agent-server double behind it (through the test server's /__control/agent routes).
import { randomUUID } from 'node:crypto';
import type { FrameLocator, Page } from 'playwright-core';
import { terminalAction, terminalObservation } from '../shared/agentEvents';
import { eventually } from './wait';

/** The document inside the active conversation panel's webview. */
export function panelFrame(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame');
}

/** Waits until the panel shows rows; returns its document. */
export async function waitForTranscript(page: Page, timeoutMs = 15_000): Promise<FrameLocator> {
  const frame = panelFrame(page);
  await frame.locator('.row').first().waitFor({ state: 'visible', timeout: timeoutMs });
  return frame;
}

/** The feed banner's state (`feed-reconnecting`, …), or 'live' when none shows. */
export async function feedState(frame: FrameLocator): Promise<string> {
  // one read of whatever is there now: a count and then an attribute read would wait up to 30 s for a
  // banner that went away in between
  const classes = await frame
    .locator('.feed-banner')
    .evaluateAll((banners) => banners.map((banner) => banner.className));
  if (classes.length === 0) return 'live';
  return /\bfeed-(?!banner\b)(\w+)/.exec(classes[0] ?? '')?.[1] ?? 'unknown';
}

export async function waitForFeed(frame: FrameLocator, state: string, timeoutMs = 15_000): Promise<void> {
  await eventually(
    `the feed to be ${state}`,
    async () => ((await feedState(frame)) === state ? true : undefined),
    {
      timeoutMs,
    },
  );
}

/** The ids of the rows rendered now (the list is virtual: the ones near the viewport). */
export async function renderedRowIds(frame: FrameLocator): Promise<string[]> {
  return frame
    .locator('.row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-row-id') ?? ''));
}

async function control<T>(serverUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(new URL(`/__control/agent/${path}`, serverUrl), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} /__control/agent/${path}: HTTP ${response.status}`);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const agentDouble = {
  append: (serverUrl: string, id: string, events: Record<string, unknown>[]) =>
    control(serverUrl, 'POST', `conversations/${id}/events`, { events }),
  stream: (serverUrl: string, id: string, deltas: string[]) =>
    control(serverUrl, 'POST', `conversations/${id}/stream`, { deltas }),
  drop: (serverUrl: string, id: string, refuseMs: number) =>
    control(serverUrl, 'POST', `conversations/${id}/drop`, { refuseMs }),
  sockets: async (serverUrl: string, id: string) =>
    (await control<{ count: number }>(serverUrl, 'GET', `conversations/${id}/sockets`)).count,
  /** Changes the double's tunables (e.g. `agentStepMs`, the pause between the scripted agent's steps). */
  options: (serverUrl: string, patch: { agentStepMs?: number }) =>
    control(serverUrl, 'POST', 'options', patch),
  /** The conversation's stored events, in storage order. */
  events: (serverUrl: string, id: string) =>
    control<Record<string, unknown>[]>(serverUrl, 'GET', `conversations/${id}/events`),
  /**
   * Writes files into the conversation's sandbox folder (a real git repository on this machine; null
   * deletes, `{base64}` is bytes) and commits them as the agent's base when `commit` is given.
   */
  workspace: (
    serverUrl: string,
    id: string,
    files: Record<string, string | { base64: string } | null>,
    commit?: string,
  ) => control<WorkspaceReply>(serverUrl, 'POST', `conversations/${id}/workspace`, { files, commit }),
  /** A base commit and the agent's change on top: an update, an add, a delete, a rename, a binary, a big file. */
  sampleWorkspace: (serverUrl: string, id: string) =>
    control<WorkspaceReply & { changes: { status: string; path: string }[] }>(
      serverUrl,
      'POST',
      `conversations/${id}/workspace/sample`,
    ),
  /** Files that can run code (a folder-open task, a Makefile, a new hook, a script made executable) and plain ones. */
  codeRunningWorkspace: (serverUrl: string, id: string) =>
    control<WorkspaceReply & { changes: { status: string; path: string }[] }>(
      serverUrl,
      'POST',
      `conversations/${id}/workspace/runs-code`,
    ),
  /** Pictures: a PNG updated, a WebP added, a JPEG deleted, a `.png` that is an SVG with a script. */
  imageWorkspace: (serverUrl: string, id: string) =>
    control<WorkspaceReply & { changes: { status: string; path: string }[] }>(
      serverUrl,
      'POST',
      `conversations/${id}/workspace/images`,
    ),
};

export interface WorkspaceReply {
  /** The sandbox's folder on this machine (the double keeps it in a temporary folder). */
  dir: string;
  head: string | null;
}

/** A user message, an agent's terminal command with its output, as the agent server stores them. */
export function terminalRound(
  command: string,
  output: string,
  exitCode: number,
  tag: string,
): Record<string, unknown>[] {
  const actionId = randomUUID();
  const callId = `call_${tag}`;
  const action = terminalAction(command, callId, {
    thought: [{ type: 'text', text: `Running ${command}` }],
    security_risk: 'LOW',
    summary: `Run ${command}`,
  });
  return [{ ...action, id: actionId }, terminalObservation(command, output, exitCode, { callId, actionId })];
}

/**
 * A browser step as agent server 1.34 stores it: the action (its summary the tool's JSON, as the
 * server makes it) and its `BrowserObservation`, with `screenshot_data` as bare base64 when given.
 */
export function browserRound(
  action: Record<string, unknown>,
  text: string,
  tag: string,
  screenshotBase64?: string,
): Record<string, unknown>[] {
  const actionId = randomUUID();
  const call = `call_${tag}`;
  const tool = `browser_${String(action['kind'])
    .replace(/^Browser|Action$/g, '')
    .replace(/(?<=.)([A-Z])/g, '_$1')
    .toLowerCase()}`;
  return [
    {
      id: actionId,
      kind: 'ActionEvent',
      source: 'agent',
      action,
      tool_name: tool,
      tool_call_id: call,
      security_risk: 'LOW',
      summary: `${tool}: ${JSON.stringify(action)}`,
    },
    {
      kind: 'ObservationEvent',
      source: 'environment',
      tool_name: tool,
      tool_call_id: call,
      action_id: actionId,
      observation: {
        content: [{ type: 'text', text }],
        is_error: false,
        kind: 'BrowserObservation',
        ...(screenshotBase64 ? { screenshot_data: screenshotBase64 } : {}),
      },
    },
  ];
}
