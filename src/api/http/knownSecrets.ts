/**
 * Every secret a transport knows, and the one place a request learns and masks one: what it sends (the
 * key, the server URL's credentials, tokens in a body) and what a reply carries (a sandbox's session
 * key, a VS Code URL's `tkn=`). Each call masks all of them, in every form a server could echo them in,
 * in its errors and log entries.
 */
import {
  echoForms,
  maskSecretFields,
  MIN_SECRET_LENGTH,
  scanParsedReply,
  scrubSecrets,
  secretsIn,
  secretsInJsonText,
  urlCredentials,
  type ParsedReplyScan,
} from '../redact';

/** Secret values of earlier calls (sent, and received) still masked in later ones; the newest are kept. */
const MAX_REMEMBERED_SECRETS = 256;
/**
 * Secrets read in one reply, past which they are no longer masked one by one (each costs a pass over
 * every text masked): the server's text is withheld from the error and the log instead.
 */
const MAX_SECRETS_PER_CALL = 2000;

export class KnownSecrets {
  /** The key and the server URL's credentials, in every form a server could echo them in. */
  private readonly ownForms: readonly string[];
  /** What earlier calls sent (tokens, MCP keys): a later reply may echo a value the server stored. */
  private readonly sent = new RecentSecrets(MAX_REMEMBERED_SECRETS);
  /** What earlier replies carried (sandboxes' session keys): a later failure may quote one. */
  private readonly received = new RecentSecrets(MAX_REMEMBERED_SECRETS);

  /**
   * @param extraSecrets values the caller knows up front that neither the key nor a request body
   * carries (an agent server's session key), asked per request
   */
  constructor(
    baseUrl: string,
    apiKey: string | undefined,
    private readonly extraSecrets?: () => readonly string[],
  ) {
    this.ownForms = echoForms([...(apiKey ? [apiKey] : []), ...urlCredentials(baseUrl)]);
  }

  /** Every secret known, in the forms a server could echo it in. */
  all(): string[] {
    return this.lists().flat();
  }

  /**
   * The secrets of a call that sends `path` and `body`: all known now, and what it sends, which later
   * calls mask too.
   */
  forCall(path: string, body: unknown): CallSecrets {
    const sent = [...secretsIn(body), ...urlCredentials(path)];
    // the lists are kept, not copied: a list is replaced, never changed, when a secret is added
    const known = [...this.lists(), echoForms(sent)];
    this.sent.add(sent);
    return new CallSecrets(
      () => known.flat(),
      (found) => this.received.add(found),
    );
  }

  private lists(): (readonly string[])[] {
    return [this.ownForms, echoForms(this.extraSecrets?.() ?? []), this.sent.forms(), this.received.forms()];
  }
}

/** One call's secrets: what it sent and what was known then, gathered on first need, and what its reply carries. */
export class CallSecrets {
  private known: { set: Set<string>; list: readonly string[] } | undefined;
  /** Secrets added by `learn`. */
  private learned = 0;
  private overflowed = false;

  /**
   * @param gather every secret known when the call was made, asked for once, when first needed
   * @param remember hands what the reply carried on to the transport, for later calls
   */
  constructor(
    private readonly gather: () => Iterable<string>,
    private readonly remember: (found: readonly string[]) => void,
  ) {}

  /** Every secret masked so far: what the call sent, and what its reply carried. */
  get list(): readonly string[] {
    return this.secrets().list;
  }

  /** The reply carried more secrets than are masked one by one: nothing the server said may be shown. */
  get withholding(): boolean {
    return this.overflowed;
  }

  /**
   * Masks every secret of the call, query-string credentials, and the values of secret fields in JSON
   * the text quotes (which may hold secrets no one read out of it), in server or system text.
   */
  scrub(text: string): string {
    return scrubSecrets(maskSecretFields(text), this.list);
  }

  /**
   * Learns the secrets of a reply: from the value it parsed to, if any, in the one walk that also checks
   * its depth; else (or too deep to walk) from its text read as far as it goes, since that text is what
   * an error and the log quote.
   */
  learnFromReply(parsed: unknown, text: string, maxDepth: number): ParsedReplyScan {
    const scan = parsed === undefined ? undefined : scanParsedReply(parsed, text, maxDepth);
    const secrets = scan && !scan.tooDeep ? scan.secrets : secretsInJsonText(text);
    this.learn(secrets);
    return { secrets, tooDeep: scan?.tooDeep ?? false };
  }

  /** Learns the secrets of a reply's text, read as far as it goes (cut short, an error, a page). */
  learnFromText(text: string): void {
    this.learn(secretsInJsonText(text));
  }

  /** Learns the secrets of one element of a streamed array. */
  learnFromValue(value: unknown): void {
    this.learn(secretsIn(value));
  }

  /**
   * Masks, from here on, secrets a reply carries: in this call's errors and log entries, and in later
   * calls' (which may quote them).
   */
  learn(values: readonly string[]): void {
    this.learnHere(values);
    this.remember(values);
  }

  private learnHere(values: readonly string[]): void {
    if (values.length === 0) return;
    const known = this.secrets();
    const before = this.learned;
    for (const form of echoForms(values)) {
      if (form.length < MIN_SECRET_LENGTH || known.set.has(form)) continue;
      if (this.learned >= MAX_SECRETS_PER_CALL) {
        this.overflowed = true;
        break;
      }
      known.set.add(form);
      this.learned++;
    }
    if (this.learned !== before) known.list = [...known.set];
  }

  private secrets(): { set: Set<string>; list: readonly string[] } {
    if (this.known) return this.known;
    const set = new Set(this.gather());
    return (this.known = { set, list: [...set] });
  }
}

/**
 * The newest secret values seen (at most `capacity`), with their echo forms worked out once per value:
 * a listing learns new session keys on every page, and working out all of them again each time cost
 * more than the page's check.
 */
class RecentSecrets {
  /** Each value and its forms, the one seen longest ago first. */
  private readonly values = new Map<string, readonly string[]>();
  private all: readonly string[] | undefined;

  constructor(private readonly capacity: number) {}

  add(values: readonly string[]): void {
    for (const value of values.slice(-this.capacity)) {
      if (value.length < MIN_SECRET_LENGTH) continue;
      const forms = this.values.get(value);
      // re-inserted, so the value seen longest ago is the first to go
      this.values.delete(value);
      this.values.set(value, forms ?? echoForms([value]));
      if (!forms) this.all = undefined;
    }
    for (const oldest of this.values.keys()) {
      if (this.values.size <= this.capacity) break;
      this.values.delete(oldest);
      this.all = undefined;
    }
  }

  /** Every form of every value; the same list until a value comes or goes. */
  forms(): readonly string[] {
    return (this.all ??= [...new Set([...this.values.values()].flat())]);
  }
}
