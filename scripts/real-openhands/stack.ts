// The real OpenHands app server and the scripted LLM: what test:real and `npm run demo -- --real` both run
// against. The demo stores the scripted LLM as the server's model; test:real leaves the server fresh, with no
// settings at all, for its VS Code part to set the model up by clicks as a new user would (issue 36).
import { SCRIPTED_MODEL, startScriptedLlm, type ScriptedLlm } from '../../test/real/scriptedLlm';
import { configureScriptedLlm } from '../../test/real/env';
import { startRealOpenHands, type RealOpenHands, type RealOpenHandsOptions } from './server';

export interface RealStack {
  server: RealOpenHands;
  llm: ScriptedLlm;
  stop(): Promise<void>;
}

export interface RealStackOptions extends RealOpenHandsOptions {
  /** Store the scripted LLM as the server's model (default); false leaves a fresh server with no settings. */
  storeLlm?: boolean;
}

export async function startRealStack(options: RealStackOptions = {}): Promise<RealStack> {
  const llm = await startScriptedLlm();
  let server: RealOpenHands;
  try {
    server = await startRealOpenHands(options);
  } catch (error) {
    await llm.close();
    throw error;
  }
  const stop = async () => {
    await server.stop();
    await llm.close();
  };
  if (options.storeLlm === false) return { server, llm, stop };
  try {
    // a fresh server has no settings: a conversation needs an LLM first
    await configureScriptedLlm(server, llm.baseUrl, SCRIPTED_MODEL);
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, llm, stop };
}
