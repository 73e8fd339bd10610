// A panel controller's surroundings for tests that read what it posts and nothing else: no VS Code,
// links and buttons that do nothing, a steering that refuses (`idleSteering`).
import type { EventFeed } from '../../../../../src/api';
import type { ControllerDeps } from '../../../../../src/webviews/conversation/host/controller';
import type { HostToWebview } from '../../../../../src/webviews/conversation/shared/protocol';
import { idleSteering } from './steeringFake';

export function postingControllerDeps(options: {
  conversationId: string;
  feed: EventFeed;
  /** What the controller posts to the page, in order. */
  posted: HostToWebview[];
  secrets?: () => readonly (string | undefined)[];
}): ControllerDeps {
  return {
    conversationId: options.conversationId,
    feed: options.feed,
    conversation: () => undefined,
    post: (message) => options.posted.push(message),
    secrets: options.secrets ?? (() => []),
    openLink: () => undefined,
    resumeSandbox: () => undefined,
    openInBrowser: () => undefined,
    showLog: () => undefined,
    warn: () => undefined,
    steer: idleSteering(),
  };
}
