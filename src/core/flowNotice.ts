import * as vscode from 'vscode';

/** A command the notice offers as a link in its text (a toast an extension can end has no buttons). */
export interface NoticeLink {
  label: string;
  command: string;
  args: readonly unknown[];
}

/** How long a notice stays when nothing newer replaces it. */
export const NOTICE_LIFETIME_MS = 10_000;

/**
 * What one flow (connecting, a switch that closed panels) last said, which its next message
 * replaces. VS Code lets no extension close a message it showed; a progress in the Notification
 * location is the one toast it can end, so a notice is that, finished at once (a full bar, not a
 * spinner), and ended by the flow's next notice, by `end` (the user is where it offered to take
 * them), or after its lifetime.
 */
export class FlowNotice implements vscode.Disposable {
  private ending: (() => void) | undefined;
  private showing: { text: string; link?: NoticeLink } | undefined;

  constructor(private readonly lifetimeMs = NOTICE_LIFETIME_MS) {}

  /** What the notice shows now (tests read the words and the link a user would see). */
  get shown(): { text: string; link?: NoticeLink } | undefined {
    return this.showing;
  }

  show(text: string, link?: NoticeLink): void {
    this.end();
    const showing = link ? { text, link } : { text };
    this.showing = showing;
    let finish = (): void => {};
    const ended = new Promise<void>((resolve) => (finish = resolve));
    const timer = setTimeout(finish, this.lifetimeMs);
    const end = (): void => {
      clearTimeout(timer);
      finish();
    };
    this.ending = end;
    void vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        // the link first: a notice with no buttons shows one line until expanded, and the link must show
        title: link ? `${linkText(link)} — ${plain(text)}` : plain(text),
      },
      async (progress) => {
        progress.report({ increment: 100 });
        await ended;
        if (this.ending === end) this.ending = undefined;
        if (this.showing === showing) this.showing = undefined;
      },
    );
  }

  /** Takes the flow's message back, if it still shows. */
  end(): void {
    const ending = this.ending;
    this.ending = undefined;
    this.showing = undefined;
    ending?.();
  }

  dispose(): void {
    this.end();
  }
}

/**
 * The text with no link in it: VS Code makes `[label](command:…)` in a notification a link that runs
 * the command, and the text may carry what a server sent (its version).
 */
function plain(text: string): string {
  return text.replace(/\]\(/g, '] (');
}

/** A link that runs the command: no brackets in its label, no parenthesis in its target (either ends it). */
function linkText({ label, command, args }: NoticeLink): string {
  const target = encodeURIComponent(JSON.stringify(args)).replace(/\(/g, '%28').replace(/\)/g, '%29');
  return `[${label.replace(/[[\]]/g, '')}](command:${command}?${target})`;
}
