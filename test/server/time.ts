// Datetimes as pydantic emits them for UTC values: ISO 8601 with microseconds and `Z`
// (the fraction is dropped when it is zero, as Python's isoformat does).

/** Microseconds since the epoch: JS only has milliseconds, but the wire format has six digits. */
export type EpochMicros = number;

export function wireTime(micros: EpochMicros): string {
  const wholeMicros = Math.floor(micros);
  const wholeSeconds = Math.floor(wholeMicros / 1_000_000);
  const fraction = wholeMicros - wholeSeconds * 1_000_000;
  const seconds = new Date(wholeSeconds * 1000).toISOString().slice(0, 19);
  return fraction === 0 ? `${seconds}Z` : `${seconds}.${String(fraction).padStart(6, '0')}Z`;
}

/** Parses what `wireTime` (or any ISO string with `Z`/offset) produced back to microseconds. */
export function parseWireTime(value: string): EpochMicros {
  const fractionMatch = /\.(\d+)/.exec(value);
  const millis = Date.parse(value.replace(/\.\d+/, ''));
  const fractionMicros = fractionMatch?.[1] ? Number(fractionMatch[1].padEnd(6, '0').slice(0, 6)) : 0;
  return millis * 1000 + fractionMicros;
}

/** Monotonic "now" in microseconds, so records created in the same millisecond still sort. */
export class Clock {
  private lastMicros = 0;

  nowMicros(): EpochMicros {
    const candidate = Date.now() * 1000 + Math.floor((performance.now() % 1) * 1000);
    this.lastMicros = Math.max(candidate, this.lastMicros + 1);
    return this.lastMicros;
  }

  now(): string {
    return wireTime(this.nowMicros());
  }
}
