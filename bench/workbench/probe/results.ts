// What the probe and the driver share: where the probe writes, and what it writes (no vscode here:
// the driver runs in plain Node).

export const RESULTS_DIR_ENV = 'OPENHANDS_BENCH_RESULTS';
/** The id of the long conversation the driver seeded on the test server, for the probe to open. */
export const LONG_CONVERSATION_ENV = 'OPENHANDS_BENCH_LONG_CONVERSATION';

/** One run's figures by group and name, or why it has none. */
export type ProbeResult =
  | {
      figures: Record<string, Record<string, number>>;
      /** Epoch ms at which the probe ran the command that opens the long conversation's panel. */
      openedAt?: number;
    }
  | { error: string };

/** The driver has read the page for this result: the probe may end (and its panel with it). */
export function seenMarker(resultFile: string): string {
  return `${resultFile}.seen`;
}

/** The probe reopened the long conversation (its panel closed first): `{ openedAt }`, epoch ms. */
export function reopenedMarker(resultFile: string): string {
  return `${resultFile}.reopened`;
}

/** The bare webview's figure, measured after the reopened panel closed: `{ bareWebviewMs }`. */
export function floorMarker(resultFile: string): string {
  return `${resultFile}.floor`;
}

/** The driver watches the page for the reopened panel's first row: the probe may run the command. */
export function watchingMarker(resultFile: string): string {
  return `${resultFile}.watching`;
}
