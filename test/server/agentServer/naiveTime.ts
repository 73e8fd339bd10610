// The agent server stamps events with `datetime.now().isoformat()`: server-local, naive (no zone),
// microseconds, the fraction dropped when it is zero. Filters compare these strings as stored.

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Epoch microseconds → the naive local ISO string Python's `isoformat()` would give. */
export function naiveLocalTime(epochMicros: number): string {
  const whole = Math.floor(epochMicros);
  const seconds = Math.floor(whole / 1_000_000);
  const fraction = whole - seconds * 1_000_000;
  const date = new Date(seconds * 1000);
  const text =
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  return fraction === 0 ? text : `${text}.${pad(fraction, 6)}`;
}

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,6})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A query datetime as the server compares it: an aware value is converted to server-local naive time
 * (AS/event_router.py), then `isoformat()`ed. `null` when it is not an ISO datetime (a 422).
 */
export function normalizeTimestampParam(raw: string): string | null {
  const match = ISO_PATTERN.exec(raw.trim());
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '', zone] = match;
  const micros = Number(fraction.padEnd(6, '0') || '0');
  const fields = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = fields;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  if (zone === undefined) {
    const text = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`;
    return micros === 0 ? text : `${text}.${pad(micros, 6)}`;
  }
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  const epochMillis = Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000;
  return naiveLocalTime(epochMillis * 1000 + micros);
}
