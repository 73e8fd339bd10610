import { ApiError } from './errors';

export type QueryValue = string | number | boolean | Date | null | undefined | readonly string[];
export type QueryParams = Record<string, QueryValue>;

/**
 * FastAPI wants repeated keys for lists (`?ids=a&ids=b`, never `ids[]=` or comma lists) and ISO
 * datetimes whose `+` is percent-encoded; URLSearchParams does both.
 */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(key, item);
    } else if (value instanceof Date) {
      // an invalid Date would throw a RangeError from toISOString: say which parameter instead
      if (Number.isNaN(value.getTime()))
        throw new ApiError({ kind: 'validation', message: `The ${key} parameter is not a valid date.` });
      search.append(key, value.toISOString());
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
