// Deterministic pseudo-random numbers (mulberry32) so seeded data and new ids are stable across runs,
// which keeps screenshots and snapshot-style assertions reproducible.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

export class Prng {
  private stateWord: number;

  constructor(seed: number) {
    this.stateWord = seed >>> 0;
  }

  /** Restarts the sequence, so `reset()` of the server yields the same ids again. */
  reseed(seed: number): void {
    this.stateWord = seed >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    this.stateWord = (this.stateWord + 0x6d2b79f5) >>> 0;
    let mixed = this.stateWord;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick() from an empty list');
    return item;
  }

  /** Picks by relative weight: `[[value, weight], ...]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let remaining = this.next() * total;
    for (const [value, weight] of entries) {
      remaining -= weight;
      if (remaining < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('weighted() from an empty list');
    return last[0];
  }

  base62(length: number): string {
    return this.fromAlphabet(BASE62, length);
  }

  hex(length: number): string {
    return this.fromAlphabet(HEX, length);
  }

  private fromAlphabet(alphabet: string, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet.charAt(Math.floor(this.next() * alphabet.length));
    return out;
  }
}
