/**
 * The row objects a tree handed to VS Code, kept by id. VS Code knows rows by object identity: to
 * redraw one row, the provider fires the very object it returned, so a row keeps its object while
 * it is shown and gets the new data put into it.
 */
export class RowCache<Row> {
  private rows = new Map<string, Row>();

  /** The rows for `items` in their order: the same objects as before where ids match; others are dropped. */
  sync<Item>(
    items: readonly Item[],
    idOf: (item: Item) => string,
    make: (item: Item) => Row,
    fill: (row: Row, item: Item) => void,
  ): Row[] {
    const next = new Map<string, Row>();
    const rows = items.map((item) => {
      const id = idOf(item);
      let row = this.rows.get(id);
      if (row) fill(row, item);
      else row = make(item);
      next.set(id, row);
      return row;
    });
    this.rows = next;
    return rows;
  }

  get(id: string): Row | undefined {
    return this.rows.get(id);
  }

  clear(): void {
    this.rows.clear();
  }
}
