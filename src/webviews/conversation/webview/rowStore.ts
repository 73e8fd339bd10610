/**
 * The page's copy of the transcript: the rows in the host's order, changed only by the host's
 * numbered messages. A message of another epoch is stale and ignored; a `rev` that is not exactly
 * the next one means a change was missed: the store stops applying (what it shows is kept) until a
 * `reset` starts a new epoch, and says so once, so the page asks the host with `ready`.
 * Pure (no DOM): unit-tested in Node.
 */
import type { Row } from '../shared/rows';

/** What the page holds, for `ready`. */
export interface Held {
  epoch?: number;
  rev?: number;
}

export type Applied =
  /** Another epoch, a stale reset, or the store is waiting for a reset after a gap. */
  | { kind: 'ignored' }
  /** A change was missed: ask the host with `ready` (reported once per gap). */
  | { kind: 'gap' }
  | { kind: 'applied'; change: StoreChange };

export interface StoreChange {
  reset: boolean;
  /** New rows put before every row. */
  prepended: number;
  /** New rows put after every row. */
  appended: number;
  /** Rows replaced where they were. */
  replaced: number;
  removed: number;
}

const NO_CHANGE: StoreChange = { reset: false, prepended: 0, appended: 0, replaced: 0, removed: 0 };

export class RowStore {
  private list: Row[] = [];
  /** Row id → its position in `list`; rebuilt lazily after the positions shift. */
  private positions = new Map<string, number>();
  private positionsValid = true;
  private heldEpoch: number | undefined;
  private heldRev: number | undefined;
  private outOfSync = false;
  /** Ids whose row holds the whole texts (`expanded`): a later update brings clipped texts again. */
  private readonly expandedIds = new Set<string>();

  get rows(): readonly Row[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** A reset was applied: the store follows an epoch (even with no rows yet). */
  get started(): boolean {
    return this.heldEpoch !== undefined;
  }

  /** Missed a change and waiting for the host to start over. */
  get waitingForReset(): boolean {
    return this.outOfSync;
  }

  held(): Held {
    return this.heldEpoch === undefined ? {} : { epoch: this.heldEpoch, rev: this.heldRev };
  }

  has(id: string): boolean {
    return this.positionOf(id) !== undefined;
  }

  get(id: string): Row | undefined {
    const at = this.positionOf(id);
    return at === undefined ? undefined : this.list[at];
  }

  isExpanded(id: string): boolean {
    return this.expandedIds.has(id);
  }

  /** Start over: every row dropped, the rows follow in `rows` messages of this epoch. */
  reset(epoch: number, rev: number): Applied {
    if (!isCount(epoch) || !isCount(rev)) return { kind: 'ignored' };
    // an older epoch's reset was overtaken (epochs only grow on the host)
    if (this.heldEpoch !== undefined && epoch < this.heldEpoch) return { kind: 'ignored' };
    this.heldEpoch = epoch;
    this.heldRev = rev;
    this.outOfSync = false;
    const removed = this.list.length;
    this.list = [];
    this.positions = new Map();
    this.positionsValid = true;
    this.expandedIds.clear();
    return { kind: 'applied', change: { ...NO_CHANGE, reset: true, removed } };
  }

  /**
   * Upsert by id: a held row is replaced where it is; new rows go after every row (`end`) or before
   * every row (`start`), in the chunk's order.
   */
  upsert(epoch: number, rev: number, at: 'start' | 'end', rows: readonly Row[]): Applied {
    const checked = this.check(epoch, rev);
    if (checked) return checked;
    this.ensurePositions();
    const fresh: Row[] = [];
    const freshAt = new Map<string, number>();
    let replaced = 0;
    for (const row of rows) {
      const held = this.positions.get(row.id);
      if (held !== undefined) {
        this.list[held] = row;
        replaced++;
        continue;
      }
      const again = freshAt.get(row.id);
      if (again !== undefined) {
        // the same new id twice in one chunk: the later one wins, in the first one's place
        fresh[again] = row;
        continue;
      }
      freshAt.set(row.id, fresh.length);
      fresh.push(row);
    }
    if (at === 'end') {
      const base = this.list.length;
      for (let i = 0; i < fresh.length; i++) {
        const row = fresh[i] as Row;
        this.list.push(row);
        this.positions.set(row.id, base + i);
      }
    } else if (fresh.length > 0) {
      this.list = fresh.concat(this.list);
      this.positionsValid = false;
    }
    return {
      kind: 'applied',
      change: {
        ...NO_CHANGE,
        prepended: at === 'start' ? fresh.length : 0,
        appended: at === 'end' ? fresh.length : 0,
        replaced,
      },
    };
  }

  remove(epoch: number, rev: number, ids: readonly string[]): Applied {
    const checked = this.check(epoch, rev);
    if (checked) return checked;
    const gone = new Set(ids);
    const before = this.list.length;
    if (gone.size > 0) this.list = this.list.filter((row) => !gone.has(row.id));
    for (const id of gone) this.expandedIds.delete(id);
    const removed = before - this.list.length;
    if (removed > 0) this.positionsValid = false;
    return { kind: 'applied', change: { ...NO_CHANGE, removed } };
  }

  /** The row again with every text whole (not part of the rev sequence); false for an unknown id. */
  expanded(row: Row): boolean {
    if (this.outOfSync) return false;
    const at = this.positionOf(row.id);
    if (at === undefined) return false;
    const held = this.list[at];
    if (held?.kind !== row.kind) return false;
    this.list[at] = row;
    this.expandedIds.add(row.id);
    return true;
  }

  /** Forget that a row was expanded (its whole texts were replaced by a newer, clipped version). */
  forgetExpanded(id: string): void {
    this.expandedIds.delete(id);
  }

  private check(epoch: number, rev: number): Applied | undefined {
    if (this.heldEpoch === undefined || epoch !== this.heldEpoch || this.outOfSync)
      return { kind: 'ignored' };
    if (this.heldRev === undefined || rev !== this.heldRev + 1) {
      // a hole in the sequence (or a change delivered twice): start over rather than guess
      this.outOfSync = true;
      return { kind: 'gap' };
    }
    this.heldRev = rev;
    return undefined;
  }

  private positionOf(id: string): number | undefined {
    this.ensurePositions();
    return this.positions.get(id);
  }

  private ensurePositions(): void {
    if (this.positionsValid) return;
    this.positions = new Map();
    for (let i = 0; i < this.list.length; i++) this.positions.set((this.list[i] as Row).id, i);
    this.positionsValid = true;
  }
}

function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}
