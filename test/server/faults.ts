// Fault injection: rules matched by method and path that delay, replace or drop replies, so client
// retry/timeout/parsing paths can be exercised against a real HTTP server.
import { STATUS_CODES } from 'node:http';
import { json, text, type Reply } from './http';
import { SPA_HTML } from './spa';

export interface FaultMatch {
  method?: string;
  /** A string matches the exact path (no query); a RegExp is tested against the path. */
  path?: string | RegExp;
}

export type FaultKind =
  | { kind: 'latency'; ms: number }
  | { kind: 'status'; status: number; body?: unknown; contentType?: string }
  | { kind: 'rate_limit'; retryAfterSeconds?: number }
  | { kind: 'malformed_json' }
  | { kind: 'html' }
  | { kind: 'reset' }
  | { kind: 'hang' }
  | { kind: 'drift' }
  /** The route's own reply, its body cut after `afterBytes` (bytes replies only; others are whole). */
  | { kind: 'cut'; afterBytes: number };

export type FaultRule = FaultKind & {
  match?: FaultMatch;
  /** How many matching requests it applies to; default Infinity. */
  times?: number;
  /** Applies to each matching request with this probability (0..1); default 1. */
  probability?: number;
};

export interface FaultHandle {
  readonly id: string;
  /** Requests it has applied to so far. */
  readonly hits: number;
  readonly remaining: number;
  remove(): void;
}

export interface FaultController {
  add(rule: FaultRule): FaultHandle;
  clear(): void;
  readonly active: readonly FaultHandle[];
}

/** What the pipeline must do for one request. */
export interface FaultDecision {
  latencyMs: number;
  drift: boolean;
  /** Cut the route's bytes reply after this many bytes. */
  cutAfterBytes?: number;
  /** Replaces the real reply when set. */
  reply: Reply | null;
}

interface ActiveFault {
  id: string;
  rule: FaultRule;
  hits: number;
  remaining: number;
}

/** A JSON body cut off mid-way, as a proxy dropping the connection would leave it. */
const TRUNCATED_JSON = '{"items":[{"id":"oh-agent-server-5Zq2uQ6b1lWk","status":"RUN';

export class FaultRegistry implements FaultController {
  private faults: ActiveFault[] = [];
  private nextId = 1;

  add(rule: FaultRule): FaultHandle {
    const fault: ActiveFault = {
      id: `fault-${this.nextId++}`,
      rule,
      hits: 0,
      remaining: rule.times ?? Infinity,
    };
    // `times: 0` is a rule that never applies.
    if (fault.remaining > 0) this.faults.push(fault);
    return this.handleFor(fault);
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length !== before;
  }

  clear(): void {
    this.faults = [];
  }

  get active(): readonly FaultHandle[] {
    return this.faults.map((fault) => this.handleFor(fault));
  }

  /** Latency and drift rules all apply; the first matching replacing rule wins. */
  evaluate(method: string, path: string): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, drift: false, reply: null };
    for (const fault of [...this.faults]) {
      if (!this.matches(fault.rule, method, path)) continue;
      const { rule } = fault;
      const modifier = rule.kind === 'latency' || rule.kind === 'drift' || rule.kind === 'cut';
      if (!modifier && decision.reply !== null) continue;
      if (rule.probability !== undefined && Math.random() >= rule.probability) continue;
      this.consume(fault);
      if (rule.kind === 'latency') decision.latencyMs += rule.ms;
      else if (rule.kind === 'drift') decision.drift = true;
      else if (rule.kind === 'cut') decision.cutAfterBytes = rule.afterBytes;
      else decision.reply = replyFor(rule);
    }
    return decision;
  }

  private matches(rule: FaultRule, method: string, path: string): boolean {
    const match = rule.match;
    if (match?.method && match.method.toUpperCase() !== method.toUpperCase()) return false;
    if (match?.path === undefined) return true;
    if (typeof match.path === 'string') return match.path === path;
    match.path.lastIndex = 0;
    return match.path.test(path);
  }

  private consume(fault: ActiveFault): void {
    fault.hits++;
    fault.remaining--;
    if (fault.remaining <= 0) this.remove(fault.id);
  }

  private handleFor(fault: ActiveFault): FaultHandle {
    return {
      id: fault.id,
      get hits() {
        return fault.hits;
      },
      get remaining() {
        return fault.remaining;
      },
      remove: () => {
        this.remove(fault.id);
      },
    };
  }
}

function replyFor(
  rule: Exclude<FaultKind, { kind: 'latency' } | { kind: 'drift' } | { kind: 'cut' }>,
): Reply {
  switch (rule.kind) {
    case 'status':
      return statusReply(rule.status, rule.body, rule.contentType);
    case 'rate_limit':
      return json({ message: 'Too many requests' }, 429, {
        'retry-after': String(rule.retryAfterSeconds ?? 1),
      });
    case 'malformed_json':
      return text(TRUNCATED_JSON, 200, 'application/json');
    case 'html':
      return text(SPA_HTML, 200, 'text/html; charset=utf-8');
    case 'reset':
      return { kind: 'destroy' };
    case 'hang':
      return { kind: 'hang' };
  }
}

/** Without a body: 500 is Starlette's plain-text page, other codes FastAPI's `{"detail": reason}`. */
function statusReply(status: number, body: unknown, contentType: string | undefined): Reply {
  if (body === undefined) {
    return status === 500
      ? text('Internal Server Error', 500)
      : json({ detail: STATUS_CODES[status] ?? 'Error' }, status);
  }
  if (typeof body === 'string') return text(body, status, contentType ?? 'text/plain; charset=utf-8');
  if (contentType) return text(JSON.stringify(body), status, contentType);
  return json(body, status);
}
