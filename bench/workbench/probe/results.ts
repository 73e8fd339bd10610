// What the probe and the driver share: where the probe writes, and what it writes (no vscode here:
// the driver runs in plain Node).

export const RESULTS_DIR_ENV = 'OPENHANDS_BENCH_RESULTS';

/** One run's figures by group and name, or why it has none. */
export type ProbeResult = { figures: Record<string, Record<string, number>> } | { error: string };
