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
  private opened = false;
  private closed = false;
  private readonly maxDepth: number;
  /** Set when a push failed because the text nests deeper than `maxDepth`. */
  tooDeep = false;

  constructor(options: { maxDepth?: number } = {}) {
    this.maxDepth = options.maxDepth ?? 256;
  }

  /** The outer array has been closed: the stream is whole. */
  get complete(): boolean {
    return this.closed;
  }

  /** Feeds a chunk and returns the elements it completed. Throws `SyntaxError` on what is not a JSON array. */
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
      if (this.depth === 0 && !/\s/.test(char ?? '')) {
        if (this.opened || char !== '[') throw new SyntaxError('The reply is not a single JSON array.');
        this.opened = true;
        this.depth = 1;
        continue;
      }
      if (char === '"') {
        this.inString = true;
      } else if (char === '{' || char === '[') {
        // depth 1 is inside the outer array: an element starts there
        if (this.depth === 1) this.elementStart = i;
        if (++this.depth > this.maxDepth) {
          this.tooDeep = true;
          throw new SyntaxError(`The reply nests deeper than ${this.maxDepth} levels.`);
        }
      } else if (char === '}' || char === ']') {
        this.depth--;
        if (this.depth === 0) this.closed = true;
        else if (this.depth === 1 && this.elementStart >= 0) {
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
