/**
 * The page's frame (layout.css), rendered once into `#app`: on top the header, the browser strip, the
 * changed files and the banners; then the transcript, with its empty state and the jump button's slot;
 * the composer below. Each view renders into its own slot.
 */
import { html, render } from 'lit';
import type { TranscriptElements } from './transcriptView';

export interface PageSlots {
  header: HTMLElement;
  browser: HTMLElement;
  changes: HTMLElement;
  banner: HTMLElement;
  transcript: TranscriptElements;
  /** Said while the conversation has no event yet. */
  empty: HTMLElement;
  jump: HTMLElement;
  composer: HTMLElement;
}

export function renderLayout(root: HTMLElement): PageSlots {
  render(
    html`<div class="top">
        <header class="conv-header"></header>
        <div class="browser-slot"></div>
        <div class="changes-slot"></div>
        <div class="banner-slot"></div>
      </div>
      <div class="transcript-wrap">
        <div class="transcript" tabindex="0" role="region" aria-label="Transcript">
          <div class="column">
            <div class="spacer spacer-top" aria-hidden="true"></div>
            <div class="rows" role="list" aria-label="Events"></div>
            <div class="spacer spacer-bottom" aria-hidden="true"></div>
            <div class="empty" hidden>
              <p class="empty-title">No events yet</p>
              <p class="empty-hint">
                Messages, commands and file edits appear here as the agent works. Send the agent a task below
                to get it started.
              </p>
            </div>
          </div>
        </div>
        <div class="jump-slot"></div>
      </div>
      <div class="composer-slot"></div>`,
    root,
  );
  const find = (selector: string): HTMLElement => {
    const element = root.querySelector<HTMLElement>(selector);
    if (!element) throw new Error(`missing ${selector}`);
    return element;
  };
  return {
    header: find('.conv-header'),
    browser: find('.browser-slot'),
    changes: find('.changes-slot'),
    banner: find('.banner-slot'),
    transcript: {
      scroller: find('.transcript'),
      topSpacer: find('.spacer-top'),
      list: find('.rows'),
      bottomSpacer: find('.spacer-bottom'),
    },
    empty: find('.empty'),
    jump: find('.jump-slot'),
    composer: find('.composer-slot'),
  };
}
