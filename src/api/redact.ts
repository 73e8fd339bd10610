/**
 * Secret-free copies of what goes over the wire, for logs. Anything that can carry a credential is
 * masked: API keys, provider tokens, MCP `api_key`s, stdio `env` values, session keys, the `tkn=`
 * that the server puts in VS Code URLs, and credentials in any URL (its query string, or the password
 * of its `user:password@`).
 */
import {
  CREDENTIAL_ARG,
  QUERY_CREDENTIAL,
  REDACTED,
  redactUrl,
  URL_PASSWORD,
} from '../common/credentialText';
import { isImageData } from './imageData';

// defined below both the host and the MCP form's page, which shows URL credentials masked too
export { REDACTED, redactUrl } from '../common/credentialText';

// every name here holds a part that SECRET_FIELD_HINT looks for
const SECRET_KEY =
  /^(api_?key|token|session_api_key|llm_api_key|search_api_key|sandbox_api_key|password|secret|authorization|x-session-api-key|x-access-token|tkn)$/i;
/** In every name `isSecretValue` takes (`SECRET_KEY`, `env`), unless it is spelled with escapes. */
const SECRET_FIELD_HINT = /api[-_]?key|token|password|secret|authorization|tkn|env|\\u/i;
/** In any text `secretsInJsonText` finds a secret in: a secret field's name, or a credential's `=` or `@`. */
const SECRET_HINT = new RegExp(`${SECRET_FIELD_HINT.source}|[=@]`, 'i');
/** A URL credential (`QUERY_CREDENTIAL` or `URL_PASSWORD`) somewhere in a text (no `g`: a test that keeps no position between texts). */
const URL_CREDENTIAL_HINT = new RegExp(`${QUERY_CREDENTIAL.source}|${URL_PASSWORD.source}`, 'i');

/**
 * The verdicts on names seen so far: a reply's walk asks about the same few dozen names for every item
 * of a list (400,000 times for 10,000 conversations), and a look-up costs less than the pattern. Bounded,
 * since a hostile server can send any number of names; past the bound the pattern answers.
 */
const secretKeyVerdicts = new Map<string, boolean>();
const MAX_KEY_VERDICTS = 2048;

export function isSecretKey(key: string): boolean {
  const known = secretKeyVerdicts.get(key);
  if (known !== undefined) return known;
  const verdict = SECRET_KEY.test(key);
  if (secretKeyVerdicts.size < MAX_KEY_VERDICTS && key.length <= 64) secretKeyVerdicts.set(key, verdict);
  return verdict;
}

/** The credential values in a text's URLs (`?api_key=abc` and `https://me:abc@host` give `abc`). */
export function urlCredentials(text: string): string[] {
  // most texts (every API path without a credential in its query) hold neither: one look, not two scans
  if (!URL_CREDENTIAL_HINT.test(text)) return [];
  const values: string[] = [];
  const found = [
    ...[...text.matchAll(QUERY_CREDENTIAL)].map((match) => match[3]),
    ...[...text.matchAll(URL_PASSWORD)].map((match) => match[2]),
  ];
  for (const raw of found) {
    if (!raw || raw === REDACTED) continue;
    values.push(raw);
    try {
      const decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
      if (decoded !== raw) values.push(decoded);
    } catch {
      // a malformed escape: the raw value is what would be echoed
    }
  }
  return values;
}

/** Past this, an image's data in a logged body is said by its length. */
const LOGGED_IMAGE_CHARS = 256;

/**
 * A masked copy of a JSON value (images past a few hundred characters said by their length). `secrets` are further values to mask wherever they occur inside a
 * string (what the client sent, echoed back by a server).
 */
export function redactJson(value: unknown, secrets: readonly string[] = [], parentKey = ''): unknown {
  if (typeof value === 'string') {
    // an image (a screenshot, a pasted picture) is megabytes of base64 that say nothing in a log
    if (value.length > LOGGED_IMAGE_CHARS && isImageData(parentKey, value))
      return `[an image: ${value.length} characters not logged]`;
    const arg = CREDENTIAL_ARG.exec(value);
    return arg ? `${arg[1]}${REDACTED}` : scrubSecrets(value, secrets);
  }
  if (Array.isArray(value)) return value.map((item) => redactJson(item, secrets, parentKey));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (isSecretValue(parentKey, key, child)) copy[key] = maskedValue(parentKey, key, child);
    else copy[scrubSecrets(key, secrets)] = redactJson(child, secrets, key);
  }
  return copy;
}

/** Every secret value inside a JSON value (what `redactJson` masks), to scrub from whatever comes back. */
export function secretsIn(value: unknown, parentKey = '', found: string[] = []): string[] {
  if (typeof value === 'string') {
    const arg = CREDENTIAL_ARG.exec(value);
    if (arg?.[2]) found.push(arg[2]);
    found.push(...urlCredentials(value));
  } else if (Array.isArray(value)) for (const item of value) secretsIn(item, parentKey, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (isSecretValue(parentKey, key, child)) found.push(...secretValues(parentKey, key, child));
      else secretsIn(child, key, found);
    }
  }
  return found;
}

/**
 * Every secret in JSON text read as far as it goes: what `secretsIn` finds in the parsed value, found
 * also in a body that is cut short or malformed, so that the part of it an error or a log quotes is
 * masked. Each value comes as decoded and as written (escapes and all, or cut where the text ends).
 * Plain text that quotes JSON, and JSON quoted inside a string, are read the same way.
 */
export function secretsInJsonText(text: string): string[] {
  // most replies hold none: a hostile one thousands of levels deep is not walked at all
  if (!SECRET_HINT.test(text)) return [];
  const found: string[] = [];
  for (const { token, field } of jsonTextValues(text)) {
    const { value, written } = decodeToken(token);
    if (field && isSecretField(field, value)) {
      found.push(...secretValues(field.parentKey, field.key, value));
      if (written !== value) found.push(...secretValues(field.parentKey, field.key, written));
    } else if (typeof value === 'string') {
      secretsIn(value, '', found);
      // JSON quoted inside a string (a proxy's error wrapping the reply) is read as JSON too
      if (value.includes('"')) found.push(...secretsInJsonText(value));
    }
  }
  return found;
}

/** What one walk over a parsed reply found: its secrets, or that it nests too deep to walk further. */
export interface ParsedReplyScan {
  secrets: string[];
  tooDeep: boolean;
}

/**
 * `secretsInJsonText` for a reply that parsed, in one walk over the value rather than a scan of its
 * text, which also checks its depth (everything that walks it afterwards recurses). A secret written
 * in the text otherwise than JSON escapes it (`\u0041` for `A`) sends the text through
 * `secretsInJsonText` too, so the form a later error may quote is known as well.
 */
export function scanParsedReply(value: unknown, text: string, maxDepth: number): ParsedReplyScan {
  const secrets: string[] = [];
  const readsStrings = mayHoldStringsToRead(text);
  let tooDeep = false;
  if (typeof value === 'string') readString(value, secrets);
  else if (typeof value === 'object' && value !== null)
    tooDeep = !walkReply(value, '', 0, maxDepth, secrets, readsStrings);
  if (tooDeep) return { secrets: [], tooDeep };
  const writtenOtherwise = secrets.some((secret) => !text.includes(JSON.stringify(secret).slice(1, -1)));
  if (writtenOtherwise) secrets.push(...secretsInJsonText(text));
  return { secrets, tooDeep };
}

/**
 * False when the value nests deeper than `maxDepth`. Called for objects and arrays only: a list of
 * 10,000 conversations holds 400,000 fields, and a call per field cost more than the check itself.
 */
function walkReply(
  value: object,
  parentKey: string,
  depth: number,
  maxDepth: number,
  found: string[],
  readsStrings: boolean,
): boolean {
  if (depth >= maxDepth) return false;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (typeof item === 'string') {
        if (readsStrings) readString(item, found);
      } else if (typeof item === 'object' && item !== null) {
        if (!walkReply(item, parentKey, depth + 1, maxDepth, found, readsStrings)) return false;
      }
    }
    return true;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (typeof child === 'object') {
      // an object or a list is never a secret value itself
      if (child !== null && !walkReply(child, key, depth + 1, maxDepth, found, readsStrings)) return false;
    } else if (typeof child === 'boolean') {
      // a flag holds no secret, as in `secretsInJsonText`
    } else if (isSecretValue(parentKey, key, child)) {
      found.push(...secretValues(parentKey, key, child));
    } else if (readsStrings && typeof child === 'string') {
      readString(child, found);
    }
  }
  return true;
}

/**
 * Whether any string of this JSON text may hold what `readString` looks for: a `=` or `@`, or a
 * backslash (the escape of a quote, or a `\u003d` that spells `=`). Three searches for one character,
 * not a pattern: a pattern over 10,000 conversations cost more than the strings it spared.
 */
function mayHoldStringsToRead(text: string): boolean {
  return text.includes('=') || text.includes('@') || text.includes('\\');
}

/** The secrets a string that is no secret field's value may still carry. */
function readString(value: string, found: string[]): void {
  // most strings (ids, times, titles) hold nothing a credential needs: no regex runs on them
  if (value.includes('=') || value.includes('@')) secretsIn(value, '', found);
  // JSON quoted inside a string (a proxy's error wrapping the reply) is read as JSON too
  if (value.includes('"') && SECRET_HINT.test(value)) found.push(...secretsInJsonText(value));
}

/**
 * JSON text with the value of every secret field masked by the field's name, as `redactJson` masks a
 * parsed value: for text that is never parsed (cut short, too deep, quoted in plain text or inside a
 * string) yet shown, so that a secret no one read out of it (a value of an env string) stays hidden.
 */
export function maskSecretFields(text: string): string {
  // most text names no secret field: a hostile reply thousands of levels deep is not walked at all
  if (!SECRET_FIELD_HINT.test(text)) return text;
  let masked = '';
  let copied = 0;
  for (const { token, index, field } of jsonTextValues(text)) {
    const { value } = decodeToken(token);
    let replacement: string | undefined;
    if (field && isSecretField(field, value))
      replacement = JSON.stringify(maskedValue(field.parentKey, field.key, value));
    else if (typeof value === 'string' && value.includes('"')) {
      const inner = maskSecretFields(value);
      if (inner !== value) replacement = JSON.stringify(inner);
    }
    if (replacement === undefined) continue;
    masked += text.slice(copied, index) + replacement;
    copied = index + token.length;
  }
  return copied === 0 ? text : masked + text.slice(copied);
}

/** A value read from JSON text; `field` when it is a value of an object, not an array item. */
interface JsonTextValue {
  /** As written: a string with its quotes (or cut off by the end of the text), or a bare literal. */
  token: string;
  index: number;
  field?: JsonField;
}

interface JsonField {
  /** The key the object itself is the value of. */
  parentKey: string;
  key: string;
}

/** The values in JSON text read as far as it goes, each with the field it belongs to: any depth, no recursion. */
function* jsonTextValues(text: string): Generator<JsonTextValue> {
  const open: JsonContainer[] = [];
  for (const match of text.matchAll(JSON_TOKEN)) {
    const [token] = match;
    const top = open.at(-1);
    const first = token.charAt(0);
    if (first === '{' || first === '[') {
      // an array hands its own key on to its items, as `secretsIn` does
      const key = top === undefined ? '' : top.array ? top.key : (top.pending ?? '');
      open.push({ array: first === '[', key, pending: undefined, expectsKey: first === '{' });
    } else if (first === '}' || first === ']') open.pop();
    else if (first === ',') {
      if (top && !top.array) Object.assign(top, { pending: undefined, expectsKey: true });
    } else if (first === ':') {
      if (top && !top.array) top.expectsKey = false;
    } else if (top && !top.array && top.expectsKey)
      top.pending = first === '"' ? jsonString(token).value : token;
    else
      yield {
        token,
        index: match.index,
        field: top && !top.array ? { parentKey: top.key, key: top.pending ?? '' } : undefined,
      };
  }
}

function isSecretField(field: JsonField, value: unknown): boolean {
  // a flag holds no secret, and masking "true" everywhere would garble the text around it
  return typeof value !== 'boolean' && isSecretValue(field.parentKey, field.key, value);
}

function decodeToken(token: string): { value: unknown; written: string } {
  return token.charAt(0) === '"' ? jsonString(token) : { value: jsonLiteral(token), written: token };
}

/** A string (closed, or cut off by the end of the text), a structural character, or a bare literal. */
const JSON_TOKEN = /"(?:[^"\\]|\\[\s\S])*(?:"|\\?$)|[{}[\]:,]|[^\s{}[\]:,"]+/g;

interface JsonContainer {
  array: boolean;
  /** The key this object or array is the value of. */
  key: string;
  /** In an object: the key whose value comes next. */
  pending: string | undefined;
  expectsKey: boolean;
}

/** A string token decoded, and as written between its quotes; a cut one decoded as far as it goes. */
function jsonString(token: string): { value: string; written: string } {
  const whole = parseJsonString(token);
  if (whole !== undefined) return { value: whole, written: token.slice(1, -1) };
  // cut off: drop an escape the cut left incomplete, and close the string
  const written = token.slice(1).replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  return { value: parseJsonString(`"${written}"`) ?? written, written };
}

function parseJsonString(token: string): string | undefined {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A number, `true`, `false` or `null`; anything else (a cut number, a word of plain text) as written. */
function jsonLiteral(token: string): unknown {
  try {
    return JSON.parse(token);
  } catch {
    return token;
  }
}

/** The forms a secret can be echoed back in: as is, escaped inside a JSON string, and URL-encoded. */
export function echoForms(values: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
  }
  return [...forms];
}

function isSecretValue(parentKey: string, key: string, value: unknown): boolean {
  // stdio env values are secrets by convention (tokens for the MCP server), the names are not
  if (parentKey === 'env' && typeof value === 'string') return value !== '';
  if (isEnvString(parentKey, key, value)) return value.trim() !== '';
  return isSecretKey(key) && value !== null && value !== '' && typeof value !== 'object';
}

/** A stdio server's env given as one `K=V,K2=V2` string (older configs) rather than an object. */
function isEnvString(parentKey: string, key: string, value: unknown): value is string {
  return key === 'env' && parentKey !== 'env' && typeof value === 'string';
}

/** The secrets a secret field holds: its value, or each value of an env string. */
function secretValues(parentKey: string, key: string, value: unknown): string[] {
  if (!isEnvString(parentKey, key, value)) return [String(value)];
  return value
    .split(',')
    .map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
    .filter((secret) => secret !== '');
}

/** A secret field's masked value: an env string keeps its names (`K=[redacted],K2=[redacted]`). */
function maskedValue(parentKey: string, key: string, value: unknown): string {
  if (!isEnvString(parentKey, key, value)) return REDACTED;
  return value
    .split(',')
    .map((pair) => (pair.trim() === '' ? pair : `${pair.slice(0, pair.indexOf('=') + 1)}${REDACTED}`))
    .join(',');
}

/** Shorter values are too likely to be ordinary words to be masked everywhere. */
export const MIN_SECRET_LENGTH = 4;

/** Removes every occurrence of the given secret values, and query-string credentials, from free text. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let scrubbed = redactUrl(text);
  // longest first, so a secret that contains another is masked whole; only those the text holds are
  // ordered (a call knows hundreds of session keys, a logged path holds none)
  const ordered = secrets
    .filter(
      (secret): secret is string =>
        !!secret && secret.length >= MIN_SECRET_LENGTH && scrubbed.includes(secret),
    )
    .sort((a, b) => b.length - a.length);
  for (const secret of ordered) {
    if (scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join(REDACTED);
  }
  return scrubbed;
}
