// Human-readable durations for the timing lines the scripts print.

export function since(startMs: number): string {
  const ms = Date.now() - startMs;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}
