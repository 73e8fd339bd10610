/**
 * The messages the user sent from a panel that the transcript does not show yet: each shows at once
 * as pending, moves through resuming / connecting / sending, and leaves when the server's echo (the
 * user message event with the same text) arrives. One that fails stays, marked, until the page has
 * put its text back into the input, so a reload or a hidden page cannot lose it. Pure, no vscode.
 */
import { messageText, type AgentEvent } from '../../../api/agentServer/events';
import type { Attachment, OutboxEntry } from '../shared/protocol';

/** A sent message whose echo never comes (the feed is down) stops showing after this long. */
const SENT_TTL_MS = 60_000;

interface Entry extends OutboxEntry {
  sentAt: number | undefined;
  /** The images themselves, here only (the page gets their count): a failed message gives them back. */
  attachments: readonly Attachment[];
}

export class Outbox {
  private entries: Entry[] = [];
  private next = 1;

  constructor(private readonly now: () => number = Date.now) {}

  get list(): OutboxEntry[] {
    const now = this.now();
    this.entries = this.entries.filter(
      (entry) => entry.sentAt === undefined || now - entry.sentAt < SENT_TTL_MS,
    );
    return this.entries.map(({ id, text, images, state, reason }) => ({ id, text, images, state, reason }));
  }

  add(text: string, state: OutboxEntry['state'], attachments: readonly Attachment[] = []): string {
    const id = `out-${this.next++}`;
    this.entries.push({
      id,
      text,
      images: attachments.length,
      attachments,
      state,
      reason: null,
      sentAt: undefined,
    });
    return id;
  }

  /** True when the entry is still there (an echo may have confirmed it already). */
  step(id: string, state: OutboxEntry['state'], reason: string | null = null): boolean {
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (!entry) return false;
    entry.state = state;
    entry.reason = reason;
    if (state === 'sent') entry.sentAt = this.now();
    return true;
  }

  /** Forgets a failed entry (its text is back in the input); its images, for the input too, or undefined. */
  dismiss(id: string): readonly Attachment[] | undefined {
    const entry = this.entries.find((candidate) => candidate.id === id && candidate.state === 'failed');
    if (!entry) return undefined;
    this.entries = this.entries.filter((candidate) => candidate !== entry);
    return entry.attachments;
  }

  /** Forgets an entry that will go another way (a message queued too late, sent as usual instead). */
  drop(id: string): void {
    this.entries = this.entries.filter((candidate) => candidate.id !== id);
  }

  /** Every queued message failed with `reason` (the start failed): their texts go back to the input. */
  failQueued(reason: string): boolean {
    const queued = this.entries.filter((entry) => entry.state === 'queued');
    for (const entry of queued) {
      entry.state = 'failed';
      entry.reason = reason;
    }
    return queued.length > 0;
  }

  /** Drops the entries these events echo (a user message with the same text); true when any left. */
  confirm(events: readonly AgentEvent[]): boolean {
    let changed = false;
    for (const event of events) {
      if (event.kind !== 'MessageEvent' || event.source !== 'user') continue;
      const text = messageText(event).trim();
      const index = this.entries.findIndex((entry) => entry.state !== 'failed' && entry.text.trim() === text);
      if (index < 0) continue;
      this.entries.splice(index, 1);
      changed = true;
    }
    return changed;
  }
}
