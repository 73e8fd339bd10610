// The real OpenHands app server with the scripted LLM stored as its LLM: what test:real and
// `npm run demo -- --real` both run against.
import { SCRIPTED_MODEL, startScriptedLlm, type ScriptedLlm } from '../../test/real/scriptedLlm';
import { configureScriptedLlm } from '../../test/real/env';
import { startRealOpenHands, type RealOpenHands, type RealOpenHandsOptions } from './server';

export interface RealStack {
  server: RealOpenHands;
  llm: ScriptedLlm;
  stop(): Promise<void>;
}

export async function startRealStack(options: RealOpenHandsOptions = {}): Promise<RealStack> {
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
  try {
    // a fresh server has no settings: a conversation needs an LLM first
    await configureScriptedLlm(server, llm.baseUrl, SCRIPTED_MODEL);
  } catch (error) {
    await stop();
    throw error;
  }
  return { server, llm, stop };
}
