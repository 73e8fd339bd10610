// What the server saw, for assertions like "the client sent ids twice" or "it sent the session key".

export interface RecordedRequest {
  method: string;
  /** Path without the query string, as sent (not percent-decoded). */
  path: string;
  query: Record<string, string[]>;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Parsed JSON, the raw text when it is not JSON, or undefined when there was no body. */
  body: unknown;
  /** The status sent, or 0 while pending / when the fault dropped or never answered the request. */
  status: number;
  /** ISO time the request arrived. */
  receivedAt: string;
}

export function recordableBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const textBody = raw.toString('utf8');
  try {
    return JSON.parse(textBody) as unknown;
  } catch {
    return textBody;
  }
}
