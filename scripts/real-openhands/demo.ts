// `npm run demo -- --real`: the real OpenHands app server with the scripted LLM, and one conversation
// already run through the agent loop, so the views have something real to show.
import type { Page } from 'playwright-core';
import { answerInputBox, runCommand } from '../../test/e2e/palette';
import { realRequest } from '../../test/real/env';
import { startRealStack, type RealStack } from './stack';

interface StartTask {
  id: string;
  status: string;
  detail: string | null;
}

export async function startRealDemoServer(preferredPort: number, logFile: string): Promise<RealStack> {
  console.log('[demo] starting the real OpenHands app server (first run installs it: a few minutes)…');
  const stack = await startRealStack({ port: preferredPort, logFile });
  try {
    const created = await realRequest<StartTask>(stack.server, 'POST', '/api/v1/app-conversations', {
      initial_message: { content: [{ type: 'text', text: 'Demo: run one shell command, then finish.' }] },
    });
    if (created.status !== 200) throw new Error(`starting a conversation: HTTP ${created.status}`);
    const deadline = Date.now() + 150_000;
    for (;;) {
      const reply = await realRequest<(StartTask | null)[]>(
        stack.server,
        'GET',
        `/api/v1/app-conversations/start-tasks?ids=${created.body.id}`,
      );
      const task = reply.body[0];
      if (task?.status === 'READY') break;
      if (task?.status === 'ERROR') throw new Error(`the demo conversation failed to start: ${task.detail}`);
      if (Date.now() > deadline) throw new Error('the demo conversation did not start in 150 s');
      await new Promise((r) => setTimeout(r, 1000));
    }
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}

/** What a user does first against a server with SESSION_API_KEY: "OpenHands: Set API Key…". */
export async function storeApiKeyInWorkbench(page: Page, apiKey: string): Promise<void> {
  await runCommand(page, 'OpenHands: Set API Key…');
  await answerInputBox(page, apiKey);
}
