// UUID and datetime validators with pydantic-core's accepted forms and error texts, because clients
// send these in queries and bodies and must cope with the exact 422s.
import { INVALID, issue, type Validator } from './validation';

const UUID_CHAR_ERROR =
  'invalid character: expected an optional prefix of `urn:uuid:` followed by [0-9a-fA-F-]';
const GROUP_LENGTHS = [8, 4, 4, 4, 12];

/** Returns the uuid crate's complaint about `text`, or the normalised dashless hex when valid. */
export function parseUuid(text: string): { hex: string } | { error: string } {
  let body = text;
  let offset = 0;
  if (body.toLowerCase().startsWith('urn:uuid:')) {
    body = body.slice(9);
    offset = 9;
  } else if (body.startsWith('{') && body.endsWith('}')) {
    body = body.slice(1, -1);
    offset = 1;
  }
  const badIndex = body.search(/[^0-9a-fA-F-]/);
  if (badIndex >= 0) {
    return { error: `${UUID_CHAR_ERROR}, found \`${body.charAt(badIndex)}\` at ${badIndex + offset + 1}` };
  }
  if (!body.includes('-')) {
    if (body.length !== 32)
      return { error: `invalid length: expected length 32 for simple format, found ${body.length}` };
    return { hex: body.toLowerCase() };
  }
  const groups = body.split('-');
  if (groups.length !== 5) return { error: `invalid group count: expected 5, found ${groups.length}` };
  for (const [index, group] of groups.entries()) {
    const expected = GROUP_LENGTHS[index] ?? 0;
    if (group.length !== expected) {
      return { error: `invalid group length in group ${index}: expected ${expected}, found ${group.length}` };
    }
  }
  return { hex: groups.join('').toLowerCase() };
}

/** A `UUID` field; yields the dashless hex form the server stores and emits. */
export function uuid(): Validator<string> {
  return (input, loc, issues) => {
    if (typeof input !== 'string') {
      issues.push(issue('uuid_type', loc, 'UUID input should be a string, bytes or UUID object', input));
      return INVALID;
    }
    const parsed = parseUuid(input);
    if ('hex' in parsed) return parsed.hex;
    issues.push(
      issue('uuid_parsing', loc, `Input should be a valid UUID, ${parsed.error}`, input, {
        error: parsed.error,
      }),
    );
    return INVALID;
  };
}

/** Dashless hex for any accepted UUID spelling, or null. For lookups that must not 422. */
export function normalizeUuid(text: string): string | null {
  const parsed = parseUuid(text);
  return 'hex' in parsed ? parsed.hex : null;
}

function digits(text: string, start: number, count: number): number | null {
  const slice = text.slice(start, start + count);
  return slice.length === count && /^\d+$/.test(slice) ? Number(slice) : null;
}

/** speedate's datetime grammar (date-only and unix timestamps allowed). Naive values are taken as UTC. */
export function parseDatetime(text: string): { micros: number } | { error: string } {
  const trimmed = text.trim();
  if (/^[+-]?\d+(\.\d+)?$/.test(trimmed)) {
    const numeric = Number(trimmed);
    const seconds = Math.abs(numeric) > 2e10 ? numeric / 1000 : numeric;
    return { micros: Math.round(seconds * 1_000_000) };
  }
  if (text.length < 10) return { error: 'input is too short' };
  const year = digits(text, 0, 4);
  if (year === null) return { error: 'invalid character in year' };
  if (text[4] !== '-') return { error: 'invalid date separator, expected `-`' };
  const month = digits(text, 5, 2);
  if (month === null) return { error: 'invalid character in month' };
  if (text[7] !== '-') return { error: 'invalid date separator, expected `-`' };
  const day = digits(text, 8, 2);
  if (day === null) return { error: 'invalid character in day' };
  if (month < 1 || month > 12) return { error: 'month value is outside expected range of 1-12' };
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return { error: 'day value is outside expected range' };
  const dateMillis = Date.UTC(year, month - 1, day);
  if (text.length === 10) return { micros: dateMillis * 1000 };
  if (!['T', 't', '_', ' '].includes(text.charAt(10))) {
    return { error: 'invalid datetime separator, expected `T`, `t`, `_` or space' };
  }
  return parseTimeOfDay(text, 11, dateMillis);
}

function parseTimeOfDay(
  text: string,
  start: number,
  dateMillis: number,
): { micros: number } | { error: string } {
  const hour = digits(text, start, 2);
  if (hour === null) return { error: 'invalid character in hour' };
  if (text[start + 2] !== ':') return { error: 'invalid time separator, expected `:`' };
  const minute = digits(text, start + 3, 2);
  if (minute === null) return { error: 'invalid character in minute' };
  let position = start + 5;
  let second = 0;
  let fractionMicros = 0;
  if (text[position] === ':') {
    const parsedSecond = digits(text, position + 1, 2);
    if (parsedSecond === null) return { error: 'invalid character in second' };
    second = parsedSecond;
    position += 3;
    if (text[position] === '.' || text[position] === ',') {
      const fraction = /^\d+/.exec(text.slice(position + 1))?.[0] ?? '';
      if (fraction === '') return { error: 'invalid character in second fraction' };
      fractionMicros = Number(fraction.padEnd(6, '0').slice(0, 6));
      position += 1 + fraction.length;
    }
  }
  if (hour > 23) return { error: 'hour value is outside expected range of 0-23' };
  if (minute > 59) return { error: 'minute value is outside expected range of 0-59' };
  if (second > 59) return { error: 'second value is outside expected range of 0-59' };
  let offsetMinutes = 0;
  const zone = text.charAt(position);
  if (zone === 'Z' || zone === 'z') position += 1;
  else if (zone === '+' || zone === '-') {
    const match = /^(\d{2}):?(\d{2})?/.exec(text.slice(position + 1));
    if (!match) return { error: 'invalid timezone hour' };
    offsetMinutes = (zone === '-' ? -1 : 1) * (Number(match[1]) * 60 + Number(match[2] ?? '0'));
    position += 1 + match[0].length;
  } else if (zone !== '') return { error: 'invalid timezone sign' };
  if (position < text.length) return { error: 'unexpected extra characters at the end of the input' };
  const millis = dateMillis + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000;
  return { micros: millis * 1000 + fractionMicros };
}

/** A `datetime` field; yields epoch microseconds for comparisons. */
export function datetime(): Validator<number> {
  return (input, loc, issues) => {
    if (typeof input !== 'string') {
      issues.push(issue('datetime_type', loc, 'Input should be a valid datetime', input));
      return INVALID;
    }
    const parsed = parseDatetime(input);
    if ('micros' in parsed) return parsed.micros;
    issues.push(
      issue(
        'datetime_from_date_parsing',
        loc,
        `Input should be a valid datetime or date, ${parsed.error}`,
        input,
        {
          error: parsed.error,
        },
      ),
    );
    return INVALID;
  };
}
