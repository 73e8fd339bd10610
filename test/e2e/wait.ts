// Polling assertions for UI state (playwright-core ships no `expect`), on the tests' one polling loop
// (test/shared/eventually.ts) with the UI's terms: a probe that throws or answers `undefined` means the
// element is not there yet; on timeout the message says what was expected and what was last seen.
import { eventuallyDefined, type EventuallyOptions } from '../shared/eventually';

export function eventually<T>(
  description: string,
  probe: () => Promise<T | undefined>,
  options: Pick<EventuallyOptions, 'timeoutMs' | 'intervalMs' | 'lastSeen'> = {},
): Promise<T> {
  return eventuallyDefined(probe, {
    timeoutMs: 10_000,
    intervalMs: 100,
    ...options,
    description,
    retryErrors: true,
  });
}
