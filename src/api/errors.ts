/** Every way a call to the OpenHands server can fail, as one closed set the UI can switch on. */
export type ApiErrorKind =
  | 'network'
  | 'timeout'
  | 'cancelled'
  | 'unauthorized'
  | 'not_found'
  | 'validation'
  | 'rate_limited'
  | 'server'
  | 'invalid_response';

/** One item of a FastAPI 422 `detail[]`. The echoed `input` is dropped on purpose: it can hold secrets. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export interface ApiErrorInit {
  kind: ApiErrorKind;
  message: string;
  status?: number;
  method?: string;
  path?: string;
  /** What the server said, when it said something readable (`detail`, `error` or `message`). */
  serverMessage?: string;
  issues?: ValidationIssue[];
  retryAfterMs?: number;
  /** The reply or frame was refused for its size: the limit it passed, in bytes. */
  overLimitBytes?: number;
  cause?: unknown;
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly serverMessage: string | undefined;
  /** FastAPI validation items for a 422, empty otherwise. */
  readonly issues: ValidationIssue[];
  readonly retryAfterMs: number | undefined;
  /** Set when a reply or frame was refused for its size (a smaller request may fit). */
  readonly overLimitBytes: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.serverMessage;
    this.issues = init.issues ?? [];
    this.retryAfterMs = init.retryAfterMs;
    this.overLimitBytes = init.overLimitBytes;
  }
}

/** The message of anything thrown (an Error's message, or the value as text). */
export function messageOf(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
