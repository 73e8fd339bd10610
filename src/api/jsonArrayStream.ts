/**
 * Splits a streamed JSON array (`[\n{…},\n{…}\n]`, as `stream-start` sends it) into its elements as
 * they arrive, so progress can be shown before the stream ends.
 */
export class JsonArrayStreamParser {
  private buffer = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private elementStart = -1;
  private scanned = 0;

  /** Feeds a chunk and returns the elements it completed. */
  push(chunk: string): unknown[] {
    this.buffer += chunk;
    const done: unknown[] = [];
    for (let i = this.scanned; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (char === '\\') this.escaped = true;
        else if (char === '"') this.inString = false;
        continue;
      }
      if (char === '"') {
        this.inString = true;
      } else if (char === '{' || char === '[') {
        // depth 1 is inside the outer array: an element starts there
        if (this.depth === 1) this.elementStart = i;
        this.depth++;
      } else if (char === '}' || char === ']') {
        this.depth--;
        if (this.depth === 1 && this.elementStart >= 0) {
          done.push(JSON.parse(this.buffer.slice(this.elementStart, i + 1)));
          this.elementStart = -1;
        }
      }
    }
    // keep only the unfinished element so the buffer stays small
    const keepFrom = this.elementStart >= 0 ? this.elementStart : this.buffer.length;
    this.buffer = this.buffer.slice(keepFrom);
    if (this.elementStart >= 0) this.elementStart = 0;
    this.scanned = this.buffer.length;
    return done;
  }
}
