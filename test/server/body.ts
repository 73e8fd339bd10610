// Request body decoding as FastAPI does it: JSON only for a JSON (or missing) content type, a
// `json_invalid` 422 for bad JSON, and "absent" for an empty body (which later gives `missing`).
import { issue, type ValidationIssue } from './validation';

export type RequestBody =
  | { kind: 'absent' }
  | { kind: 'json'; value: unknown }
  /** A non-JSON content type: FastAPI hands the bytes to the model, which rejects them. */
  | { kind: 'raw'; text: string }
  | { kind: 'malformed'; issue: ValidationIssue };

function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  const [major, subtype = ''] = mediaType.split('/');
  return major === 'application' && (subtype === 'json' || subtype.endsWith('+json'));
}

/** Python's json module wording for the most common decode errors. */
function pythonJsonMessage(nodeMessage: string): string {
  if (nodeMessage.includes('property name')) return 'Expecting property name enclosed in double quotes';
  if (nodeMessage.includes('after JSON')) return 'Extra data';
  if (nodeMessage.includes("Expected ',' or '}'") || nodeMessage.includes("Expected ',' or ']'")) {
    return "Expecting ',' delimiter";
  }
  if (nodeMessage.includes("Expected ':'")) return "Expecting ':' delimiter";
  if (nodeMessage.includes('Unterminated string')) return 'Unterminated string starting at';
  return 'Expecting value';
}

export function parseRequestBody(raw: Buffer, contentType: string | undefined): RequestBody {
  if (raw.length === 0) return { kind: 'absent' };
  const textBody = raw.toString('utf8');
  if (!isJsonContentType(contentType)) return { kind: 'raw', text: textBody };
  try {
    return { kind: 'json', value: JSON.parse(textBody) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = Number(/position (\d+)/.exec(message)?.[1] ?? textBody.length);
    return {
      kind: 'malformed',
      issue: issue(
        'json_invalid',
        ['body', position],
        'JSON decode error',
        {},
        { error: pythonJsonMessage(message) },
      ),
    };
  }
}

/** What a model-typed body parameter receives: the parsed JSON, the raw text, or "absent". */
export function bodyInput(body: RequestBody): { present: false } | { present: true; value: unknown } {
  if (body.kind === 'json') return { present: true, value: body.value };
  if (body.kind === 'raw') return { present: true, value: body.text };
  return { present: false };
}

/** The 422 for a required body that was not sent. */
export function missingBodyIssue(): ValidationIssue {
  return issue('missing', ['body'], 'Field required', null);
}
