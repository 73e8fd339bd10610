// A feed's state as the header reads it: live, the whole history read, nothing else known yet; a test
// names only what it is about.
import type { FeedState } from '../../../../../src/api/agentServer/feedState';

export function feedState(state: Partial<FeedState> = {}): FeedState {
  return {
    status: 'live',
    detail: undefined,
    retryAt: undefined,
    executionStatus: undefined,
    confirmationPolicy: undefined,
    model: undefined,
    usage: undefined,
    streaming: undefined,
    historyComplete: true,
    notice: undefined,
    modelFailure: undefined,
    awaitingAgent: false,
    ...state,
  };
}
