/**
 * The transcript's rows on their way to the page, numbered by `epoch` and `rev`: each change as it
 * comes, the streaming reply kept as the last row while it streams, and everything again when the page
 * asks (`ready` after a load or a gap): a reset and the newest rows now, then older chunks, one a turn,
 * so the end of a long conversation paints at once. Every row is cleaned (`clean`) as it leaves.
 * No vscode import.
 */
import type { FeedState } from '../../../api/agentServer/feedState';
import { markOpening } from '../../../common/openingMarks';
import type { Header, HostToWebview } from '../shared/protocol';
import { STREAMING_ROW_ID, type Row } from '../shared/rows';
import type { TranscriptChange } from './rows/transcript';

/** The newest rows sent first after a reset; the rest follows in older chunks. */
const FIRST_CHUNK = 300;
const OLDER_CHUNK = 1000;

export interface HistorySenderDeps {
  post(message: HostToWebview): void;
  /** The transcript's rows, oldest first. */
  rows(): readonly Row[];
  /** A row as the page may hold it (paths relative, secrets scrubbed). */
  clean(row: Row): Row;
  /** The reply the model streams now. */
  streaming(): FeedState['streaming'];
}

export class HistorySender {
  private epoch = Date.now();
  private rev = 0;
  private streamingShown = false;
  /** A resend's older rows not yet posted, newest chunk first. */
  private olderChunks: Row[][] = [];
  private olderTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(private readonly deps: HistorySenderDeps) {}

  /** Whether the page holds every change sent (what its `ready` says). */
  isCurrent(epoch: number | undefined, rev: number | undefined): boolean {
    return epoch === this.epoch && rev === this.rev;
  }

  /**
   * Everything again: a reset and the newest rows now, then older chunks back to the first, one a
   * turn (cleaned as they go), so the newest leave before the rest is even read. Anything else the
   * page is sent first flushes what is left, keeping the rows in order.
   */
  resend(header: Header): void {
    this.epoch = Math.max(Date.now(), this.epoch + 1);
    this.rev = 0;
    this.deps.post({ type: 'reset', epoch: this.epoch, rev: this.rev, header });
    const rows = [...this.deps.rows()];
    const first = rows.splice(Math.max(0, rows.length - FIRST_CHUNK)).map((row) => this.deps.clean(row));
    const streaming = this.deps.streaming();
    if (streaming) first.push(this.streamingRow());
    this.streamingShown = streaming !== undefined;
    this.postRows('end', first);
    if (first.length) markOpening('firstRowsPosted');
    this.olderChunks = [];
    for (let end = rows.length; end > 0; end -= OLDER_CHUNK)
      this.olderChunks.push(rows.slice(Math.max(0, end - OLDER_CHUNK), end));
    this.postOlderLater();
  }

  /** What a batch of events changed. */
  send(change: TranscriptChange): void {
    this.postOlder(Infinity);
    if (change.start.length)
      this.postRows(
        'start',
        change.start.map((row) => this.deps.clean(row)),
      );
    if (change.removed.length) {
      this.deps.post({ type: 'remove', epoch: this.epoch, rev: ++this.rev, ids: change.removed });
    }
    if (change.end.length) {
      // the final message replaces the streaming bubble, which must stay the last row until then: it
      // goes before the new rows and comes back after them while the reply still streams
      const streaming = this.streamingShown;
      if (streaming) this.dropStreaming();
      this.postRows(
        'end',
        change.end.map((row) => this.deps.clean(row)),
      );
      if (streaming && this.deps.streaming()) {
        this.streamingShown = true;
        this.postRows('end', [this.streamingRow()]);
      }
    }
  }

  /** The feed's state changed: the streaming reply shows as it grows, and goes when it ends. */
  streamingChanged(): void {
    if (this.deps.streaming()) {
      this.streamingShown = true;
      this.postRows('end', [this.streamingRow()]);
    } else if (this.streamingShown) this.dropStreaming();
  }

  dispose(): void {
    this.closed = true;
    clearTimeout(this.olderTimer);
    this.olderChunks = [];
  }

  private postOlderLater(): void {
    if (this.olderTimer || this.olderChunks.length === 0 || this.closed) return;
    this.olderTimer = setTimeout(() => {
      this.olderTimer = undefined;
      this.postOlder(1);
      this.postOlderLater();
    }, 0);
  }

  /** Posts the next `count` older chunks of a resend (all of them: Infinity). */
  private postOlder(count: number): void {
    for (let posted = 0; posted < count; posted++) {
      const chunk = this.olderChunks.shift();
      if (!chunk) return;
      this.postRows(
        'start',
        chunk.map((row) => this.deps.clean(row)),
      );
    }
  }

  private dropStreaming(): void {
    this.streamingShown = false;
    this.deps.post({ type: 'remove', epoch: this.epoch, rev: ++this.rev, ids: [STREAMING_ROW_ID] });
  }

  private streamingRow(): Row {
    const streaming = this.deps.streaming();
    return this.deps.clean({
      id: STREAMING_ROW_ID,
      timestamp: '',
      kind: 'streaming',
      text: streaming?.text ?? '',
      ...(streaming?.reasoning ? { reasoning: streaming.reasoning } : {}),
    });
  }

  private postRows(at: 'start' | 'end', rows: Row[]): void {
    if (rows.length === 0) return;
    this.deps.post({ type: 'rows', epoch: this.epoch, rev: ++this.rev, at, rows });
  }
}
