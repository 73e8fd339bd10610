// What sandboxes, specs and conversations are called wherever they are shown: rows, pickers, messages.
import { normalizeUuid, type AppConversation, type SandboxInfo } from '../api';
import { askedWords } from './askedWords';

export const SANDBOX_ID_PREFIX = 'oh-agent-server-';

/** The distinctive part of a sandbox id (Docker ids share a long prefix). */
export function shortSandboxId(id: string): string {
  return id.startsWith(SANDBOX_ID_PREFIX) ? id.slice(SANDBOX_ID_PREFIX.length) : id;
}

/**
 * The image's last path part and its tag: `ghcr.io/openhands/agent-server:4e2ecd8-python` →
 * `agent-server:4e2ecd8-python`; a digest is cut to 12 hex digits (`agent-server@sha256:4e2ecd8f0a1b`).
 */
export function shortSpec(specId: string): string {
  const digest = /@([a-z0-9]+):([0-9a-f]{12})[0-9a-f]*$/i.exec(specId);
  const name = digest ? specId.slice(0, digest.index) : specId;
  const last = name.split('/').at(-1) || name;
  return digest ? `${last}@${digest[1]}:${digest[2]}` : last;
}

const ADJECTIVES = (
  'amber bold brave bright calm clever cosy crisp eager fair fancy gentle glad golden grand happy ' +
  'hidden jolly keen kind lively lucky mellow merry misty modest nimble noble patient plucky polite ' +
  'proud quick quiet rapid rosy rustic serene sharp shiny silent silver sleepy smooth snowy solid ' +
  'sunny swift tidy tiny tranquil trusty upbeat vivid warm wise witty young zesty breezy cheerful ' +
  'dapper frosty lunar'
).split(' ');

const NOUNS = (
  'badger beacon birch brook canyon cedar comet coral crane delta dune ember falcon fern fjord ' +
  'forest fox garden glacier harbor hazel heron island lagoon lantern lark maple meadow mesa moon ' +
  'otter owl panda pebble pine planet prairie quartz raven reef ridge river robin sparrow spruce ' +
  'star stream summit thistle tiger trail tulip valley violet walrus willow wren yak zephyr acorn ' +
  'aurora basalt cactus dolphin'
).split(' ');

/**
 * A short name for a sandbox that hosts no conversation (yet): two words picked by the id, so the
 * same sandbox keeps its name (`quiet-harbor`). The id itself is for the tooltip and Copy Id.
 */
export function readableSandboxName(id: string): string {
  // FNV-1a over the id
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return `${ADJECTIVES[hash % ADJECTIVES.length]}-${NOUNS[(hash >>> 16) % NOUNS.length]}`;
}

/** A sandbox reads as what runs in it: its newest conversation's title, else its readable name. */
export function sandboxName(sandboxId: string, newest: AppConversation | undefined): string {
  return newest ? conversationTitle(newest) : readableSandboxName(sandboxId);
}

/** The newest of these conversations (by creation; the first on a tie, as the server lists newest first). */
export function newestConversation(conversations: readonly AppConversation[]): AppConversation | undefined {
  const time = (conversation: AppConversation) => Date.parse(conversation.created_at ?? '') || 0;
  let newest: AppConversation | undefined;
  for (const conversation of conversations)
    if (!newest || time(conversation) > time(newest)) newest = conversation;
  return newest;
}

/**
 * The server's title; until it has one (none, or its placeholder "Conversation b2dd7"), what the user
 * asked, when this VS Code knows it.
 */
export function conversationTitle(conversation: AppConversation): string {
  const title = conversation.title?.trim();
  if (title && !isPlaceholderTitle(title, conversation.id)) return title;
  return askedWords(conversation.id) ?? (title || `Conversation ${conversation.id.slice(0, 8)}`);
}

/** The title OpenHands gives a conversation at its start: "Conversation " and its id's first 5 hex digits. */
export function isPlaceholderTitle(title: string, conversationId: string): boolean {
  return title === `Conversation ${normalizeUuid(conversationId).slice(0, 5)}`;
}

/** The sandbox's own VS Code (its URL carries a `tkn=` credential: never log or show it whole). */
export function vscodeUrl(sandbox: SandboxInfo): string | undefined {
  return sandbox.exposed_urls?.find((url) => url.name === 'VSCODE')?.url;
}
