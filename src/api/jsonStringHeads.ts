/**
 * JSON text read as it streams, every string kept to its first `maxStringChars` characters: a reply
 * of any length then costs its structure and the heads of its strings, so an event too large to
 * read whole can still be named (its id, kind and time) and stepped past. What it keeps stays valid
 * JSON: a string is never cut inside an escape.
 */
export class JsonStringHeads {
  private readonly kept: string[] = [];
  private keptChars = 0;
  private inString = false;
  private escaped = false;
  /** Hex digits of a `\uXXXX` escape still to come. */
  private hexLeft = 0;
  private stringChars = 0;
  /** Past the head of a long string: skipping to its closing quote. */
  private skipping = false;
  /** Some string was cut. */
  cut = false;

  constructor(
    private readonly maxStringChars: number,
    /** What is kept, at most (structure and heads): past it `push` throws a `RangeError`. */
    private readonly maxKeptChars: number,
  ) {}

  get text(): string {
    return this.kept.join('');
  }

  push(chunk: string): void {
    let keepFrom = 0;
    let index = 0;
    while (index < chunk.length) {
      if (this.skipping) {
        if (this.escaped) {
          this.escaped = false;
          index++;
          continue;
        }
        QUOTE_OR_BACKSLASH.lastIndex = index;
        const found = QUOTE_OR_BACKSLASH.exec(chunk);
        if (!found) {
          index = chunk.length;
          break;
        }
        index = found.index;
        if (chunk[index] === '\\') {
          this.escaped = true;
          index++;
          continue;
        }
        // the closing quote is kept, and so is what follows it
        this.skipping = false;
        this.inString = false;
        keepFrom = index;
        index++;
        continue;
      }
      const char = chunk[index];
      index++;
      if (!this.inString) {
        if (char === '"') {
          this.inString = true;
          this.stringChars = 0;
        }
        continue;
      }
      if (this.hexLeft > 0) this.hexLeft--;
      else if (this.escaped) {
        this.escaped = false;
        if (char === 'u') this.hexLeft = 4;
      } else if (char === '\\') this.escaped = true;
      else if (char === '"') {
        this.inString = false;
        continue;
      }
      this.stringChars++;
      if (this.stringChars >= this.maxStringChars && !this.escaped && this.hexLeft === 0) {
        this.keep(chunk.slice(keepFrom, index));
        this.skipping = true;
        this.cut = true;
      }
    }
    if (!this.skipping) this.keep(chunk.slice(keepFrom));
  }

  private keep(text: string): void {
    this.keptChars += text.length;
    if (this.keptChars > this.maxKeptChars)
      throw new RangeError(`More than ${this.maxKeptChars} characters of JSON outside long strings.`);
    this.kept.push(text);
  }
}

const QUOTE_OR_BACKSLASH = /["\\]/g;
