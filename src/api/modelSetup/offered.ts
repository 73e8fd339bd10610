/**
 * Whether the server has a route at all. OpenHands 1.11 added the model catalogue, LLM profiles and
 * `switch_profile`; older servers and other deployments may lack them. What the server offers decides:
 * a route it did not offer is a typed answer, and nothing is written anywhere else instead.
 */
import { ApiError } from '../errors';

export type Offered<T> = { offered: true; value: T } | { offered: false };

export const NOT_OFFERED: Offered<never> = { offered: false };

export function offered<T>(value: T): Offered<T> {
  return { offered: true, value };
}

/**
 * The path is not a route here: FastAPI's own `{"detail": "Not Found"}`, a 405 (the web UI's static
 * mount answers a POST it does not know so), or the web UI's page (200 HTML) served for an unknown GET.
 * A 404 a route says itself ("Profile 'x' not found", "Settings not found") is not this.
 */
export function routeNotOffered(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'not_found') {
    if (error.status === 405) return true;
    const said = error.serverMessage?.trim();
    return said === undefined || /^not found$/i.test(said);
  }
  return error.kind === 'invalid_response' && error.status === 200;
}

/** Runs a call; a route the server does not have becomes `NOT_OFFERED`, any other failure is thrown. */
export async function ifOffered<T>(call: () => Promise<T>): Promise<Offered<T>> {
  try {
    return offered(await call());
  } catch (error) {
    if (routeNotOffered(error)) return NOT_OFFERED;
    throw error;
  }
}
