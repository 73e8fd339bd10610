// MCPConfig validation with the real validators (openhands/core/config/mcp_config.py): extra keys
// forbidden at the top, bare URL strings accepted for SSE/SHTTP, URL/name/command/timeout checks.
// Inputs the Python code would crash on (e.g. `url: 5` hits `.strip()`) become uncaught 500s.
import type { McpConfig, McpShttpServer, McpSseServer, McpStdioServer } from './models';
import { shlexSplit } from './shlex';
import {
  dict,
  INVALID,
  int,
  isPlainObject,
  list,
  model,
  nullable,
  optional,
  required,
  str,
  UncaughtServerError,
  valueError,
  type Validator,
  nullableField,
} from './validation';

const ALLOWED_SCHEMES = ['http', 'https', 'ws', 'wss'];

/** A `mode='before'` validator that calls `.strip()` first: non-strings crash the real server. */
function strippedString(input: unknown): string {
  if (typeof input !== 'string')
    throw new UncaughtServerError(`'${typeof input}' object has no attribute 'strip'`);
  return input;
}

/** `urlparse` scheme and netloc, enough to mirror `_validate_mcp_url`. */
function urlProblem(url: string): string | null {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(url);
  const scheme = match?.[1]?.toLowerCase() ?? '';
  const rest = match ? (match[2] ?? '') : url;
  const netloc = rest.startsWith('//') ? (rest.slice(2).split(/[/?#]/)[0] ?? '') : '';
  if (!scheme) return 'URL must include a scheme (e.g., http:// or https://)';
  if (!netloc) return 'URL must include a host';
  if (!ALLOWED_SCHEMES.includes(scheme))
    return `Invalid URL scheme: ${scheme}. Must be http, https, ws, or wss`;
  return null;
}

const mcpUrl: Validator<string> = (input, loc, issues) => {
  const raw = strippedString(input);
  if (raw.trim() === '') {
    issues.push(valueError(loc, 'URL cannot be empty', input));
    return INVALID;
  }
  const url = raw.trim();
  const problem = urlProblem(url);
  if (problem === null) return url;
  issues.push(valueError(loc, `Invalid URL format: ${problem}`, input));
  return INVALID;
};

const serverName: Validator<string> = (input, loc, issues) => {
  const name = strippedString(input).trim();
  if (name === '') issues.push(valueError(loc, 'Server name cannot be empty', input));
  else if (!/^[a-zA-Z0-9_-]+$/.test(name)) {
    issues.push(
      valueError(loc, 'Server name can only contain letters, numbers, hyphens, and underscores', input),
    );
  } else return name;
  return INVALID;
};

const command: Validator<string> = (input, loc, issues) => {
  const value = strippedString(input).trim();
  if (value === '') issues.push(valueError(loc, 'Command cannot be empty', input));
  else if (value.includes(' ')) {
    issues.push(
      valueError(
        loc,
        'Command should be a single executable without spaces (use arguments field for parameters)',
        input,
      ),
    );
  } else return value;
  return INVALID;
};

/** Python falsiness, as in `return v or []`. */
function isFalsy(input: unknown): boolean {
  return (
    input === null ||
    input === false ||
    input === 0 ||
    input === '' ||
    (Array.isArray(input) && input.length === 0) ||
    (isPlainObject(input) && Object.keys(input).length === 0)
  );
}

const args: Validator<string[]> = (input, loc, issues) => {
  if (typeof input === 'string') {
    if (input.trim() === '') return [];
    try {
      return shlexSplit(input.trim());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      issues.push(
        valueError(
          loc,
          `Invalid argument format: ${reason}. Use shell-like format, e.g., "arg1 arg2" or '--config "value with spaces"'`,
          input,
        ),
      );
      return INVALID;
    }
  }
  return isFalsy(input) ? [] : list(str())(input, loc, issues);
};

const ENV_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const env: Validator<Record<string, string>> = (input, loc, issues) => {
  if (typeof input !== 'string') {
    if (isFalsy(input)) return {};
    const parsed = dict(str(), str())(input, loc, issues);
    return parsed === INVALID ? INVALID : (parsed as Record<string, string>);
  }
  const out: Record<string, string> = {};
  for (const rawPair of input.split(',')) {
    const pair = rawPair.trim();
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const key = separator < 0 ? '' : pair.slice(0, separator).trim();
    let problem: string | null = null;
    if (separator < 0) problem = `Environment variable '${pair}' must be in KEY=VALUE format`;
    else if (key === '') problem = 'Environment variable key cannot be empty';
    else if (!ENV_NAME.test(key)) {
      problem = `Invalid environment variable name '${key}'. Must start with letter or underscore, contain only alphanumeric characters and underscores`;
    }
    if (problem !== null) {
      issues.push(valueError(loc, problem, input));
      return INVALID;
    }
    out[key] = pair.slice(separator + 1);
  }
  return out;
};

const timeout: Validator<number | null> = (input, loc, issues) => {
  const parsed = nullable(int())(input, loc, issues);
  if (parsed === INVALID || parsed === null) return parsed;
  if (parsed <= 0) issues.push(valueError(loc, 'Timeout must be positive', input));
  else if (parsed > 3600) issues.push(valueError(loc, 'Timeout cannot exceed 3600 seconds (1 hour)', input));
  else return parsed;
  return INVALID;
};

const sseServer: Validator<McpSseServer> = model({
  url: required(mcpUrl),
  api_key: nullableField(str()),
});

const stdioServer: Validator<McpStdioServer> = model({
  name: required(serverName),
  command: required(command),
  args: optional(args, () => []),
  env: optional(env, () => ({})),
});

const shttpServer: Validator<McpShttpServer> = model({
  url: required(mcpUrl),
  api_key: nullableField(str()),
  timeout: optional(timeout, () => 60),
});

/** `_normalize_servers`: iterates whatever it was given (a str by characters, a dict by keys). */
function normalizeServers(value: unknown): unknown[] {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'string') items = [...value];
  else if (isPlainObject(value)) items = Object.keys(value);
  else
    throw new UncaughtServerError(`'${value === null ? 'NoneType' : typeof value}' object is not iterable`);
  return items.map((item) => (typeof item === 'string' ? { url: item } : item));
}

const mcpConfigModel = model(
  {
    sse_servers: optional(list(sseServer), () => []),
    stdio_servers: optional(list(stdioServer), () => []),
    shttp_servers: optional(list(shttpServer), () => []),
  },
  { forbidExtra: true },
);

export const mcpConfigValidator: Validator<McpConfig> = (input, loc, issues) => {
  if (!isPlainObject(input)) return mcpConfigModel(input, loc, issues);
  const normalized: Record<string, unknown> = { ...input };
  for (const key of ['sse_servers', 'shttp_servers']) {
    if (key in normalized) normalized[key] = normalizeServers(normalized[key]);
  }
  return mcpConfigModel(normalized, loc, issues);
};
