// `GET /api/v1/config/models/search` and `/api/v1/config/providers/search` as openhands-ai 1.11.0 serves
// them (app_server/config_api/config_router.py): `limit` defaults to 50 (gt 0, le 100, a 422 outside),
// `query` a case-insensitive substring of the name, `verified__eq`, `provider__eq` (models only), and
// `page_id` the offset as urlsafe base64 without padding (utils/paging_utils.py: one that does not
// decode restarts at 0); `next_page_id` only when more items follow.
import type { ServerContext } from '../context';
import { json, validationFailed, type Reply } from '../http';
import { catalogueModels, catalogueProviders } from '../modelCatalogue';
import { lastValue, limitParam, optionalParam, type QueryParams } from '../query';
import type { Route, RouteRequest } from '../route';
import { bool, INVALID, str, type ValidationIssue } from '../validation';

const DEFAULT_LIMIT = 50;

function encodePageId(offset: number): string {
  return Buffer.from(String(offset)).toString('base64url');
}

function decodePageId(pageId: string | undefined): number {
  if (!pageId) return 0;
  const decoded = Buffer.from(pageId, 'base64url').toString();
  return /^\d+$/.test(decoded) ? Number(decoded) : 0;
}

interface SearchParams {
  query: string | undefined;
  verified: boolean | undefined;
  provider: string | undefined;
  offset: number;
  limit: number;
}

function searchParams(query: QueryParams): SearchParams | Reply {
  const issues: ValidationIssue[] = [];
  const limit = lastValue(query, 'limit') === undefined ? DEFAULT_LIMIT : limitParam(query, issues);
  const text = optionalParam(query, 'query', str(), issues);
  const verified = optionalParam(query, 'verified__eq', bool(), issues);
  const provider = optionalParam(query, 'provider__eq', str(), issues);
  const pageId = optionalParam(query, 'page_id', str(), issues);
  if (
    limit === INVALID ||
    text === INVALID ||
    verified === INVALID ||
    provider === INVALID ||
    pageId === INVALID
  )
    return validationFailed(issues);
  return { query: text, verified, provider, offset: decodePageId(pageId), limit };
}

function page<T>(items: readonly T[], params: SearchParams): Reply {
  const end = params.offset + params.limit;
  return json({
    items: items.slice(params.offset, end),
    next_page_id: end < items.length ? encodePageId(end) : null,
  });
}

function searchModels(request: RouteRequest, context: ServerContext): Reply {
  const params = searchParams(request.query);
  if (!('offset' in params)) return params;
  const needle = params.query?.toLowerCase();
  const models = catalogueModels(context.state.modelCatalogue).filter(
    (m) =>
      (needle === undefined || m.name.toLowerCase().includes(needle)) &&
      (params.verified === undefined || m.verified === params.verified) &&
      (params.provider === undefined || m.provider === params.provider),
  );
  return page(models, params);
}

function searchProviders(request: RouteRequest, context: ServerContext): Reply {
  const params = searchParams(request.query);
  if (!('offset' in params)) return params;
  const needle = params.query?.toLowerCase();
  const providers = catalogueProviders(context.state.modelCatalogue).filter(
    (p) =>
      (needle === undefined || p.name.toLowerCase().includes(needle)) &&
      (params.verified === undefined || p.verified === params.verified),
  );
  return page(providers, params);
}

export const modelCatalogueRoutes: Route[] = [
  { since1_11: true, method: 'GET', pattern: /^\/api\/v1\/config\/models\/search$/, handle: searchModels },
  {
    since1_11: true,
    method: 'GET',
    pattern: /^\/api\/v1\/config\/providers\/search$/,
    handle: searchProviders,
  },
];
