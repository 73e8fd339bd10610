// Query-string parameters with FastAPI semantics: scalars take the last repeated value, lists are
// repeated parameters (`?ids=a&ids=b`), and every problem becomes a `["query", name, ...]` 422 item.
import { MAX_PAGE_LIMIT } from './batch';
import { INVALID, int, issue, str, type Validator, type ValidationIssue } from './validation';

export type QueryParams = Record<string, string[]>;

export const DEFAULT_PAGE_LIMIT = 100;

export function queryParamsOf(url: URL): QueryParams {
  const params: QueryParams = {};
  for (const [name, value] of url.searchParams) (params[name] ??= []).push(value);
  return params;
}

export function lastValue(query: QueryParams, name: string): string | undefined {
  const values = query[name];
  return values?.[values.length - 1];
}

/** An optional scalar; `undefined` when absent, INVALID (with an issue recorded) when malformed. */
export function optionalParam<T>(
  query: QueryParams,
  name: string,
  validator: Validator<T>,
  issues: ValidationIssue[],
): T | undefined | typeof INVALID {
  const raw = lastValue(query, name);
  return raw === undefined ? undefined : validator(raw, ['query', name], issues);
}

/** A required `list[...]` parameter. */
export function requiredListParam<T>(
  query: QueryParams,
  name: string,
  validator: Validator<T>,
  issues: ValidationIssue[],
): T[] | typeof INVALID {
  const values = query[name] ?? [];
  if (values.length === 0) {
    issues.push(issue('missing', ['query', name], 'Field required', null));
    return INVALID;
  }
  const parsed: T[] = [];
  let failed = false;
  values.forEach((value, index) => {
    const result = validator(value, ['query', name, index], issues);
    if (result === INVALID) failed = true;
    else parsed.push(result);
  });
  return failed ? INVALID : parsed;
}

/** `limit: int = Query(default=100, gt=0, le=100)` (openhands-ai 1.11.0: `le`, enforced, a 422 above 100). */
export function limitParam(query: QueryParams, issues: ValidationIssue[]): number | typeof INVALID {
  const raw = lastValue(query, 'limit');
  if (raw === undefined) return DEFAULT_PAGE_LIMIT;
  const parsed = int()(raw, ['query', 'limit'], issues);
  if (parsed === INVALID) return INVALID;
  if (parsed <= 0) {
    issues.push(issue('greater_than', ['query', 'limit'], 'Input should be greater than 0', raw, { gt: 0 }));
    return INVALID;
  }
  if (parsed > MAX_PAGE_LIMIT) {
    issues.push(
      issue(
        'less_than_equal',
        ['query', 'limit'],
        `Input should be less than or equal to ${MAX_PAGE_LIMIT}`,
        raw,
        {
          le: MAX_PAGE_LIMIT,
        },
      ),
    );
    return INVALID;
  }
  return parsed;
}

/** `page_id` is an opaque stringified offset; anything that is not an integer restarts at 0. */
export function pageOffsetParam(query: QueryParams, issues: ValidationIssue[]): number {
  const raw = optionalParam(query, 'page_id', str(), issues);
  if (raw === undefined || raw === INVALID) return 0;
  const trimmed = raw.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return 0;
  return Math.max(0, Number(trimmed));
}
