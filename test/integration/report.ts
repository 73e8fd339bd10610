// The JSON file the in-VS-Code suite writes and the drivers read: the browser cannot see the extension
// host's exit code, so results travel through the file system.

export interface TestOutcome {
  title: string;
  fullTitle: string;
  durationMs?: number;
}

export interface TestFailure extends TestOutcome {
  message: string;
  stack?: string;
}

export interface TestReport {
  vscodeVersion: string;
  uiKind: string;
  passes: TestOutcome[];
  failures: TestFailure[];
  pending: TestOutcome[];
  durationMs: number;
}

/** `N passed, N failed` plus `, N skipped` when some were skipped: the line drivers print last. */
export function summaryLine(report: Pick<TestReport, 'passes' | 'failures' | 'pending'>): string {
  const line = `${report.passes.length} passed, ${report.failures.length} failed`;
  return report.pending.length > 0 ? `${line}, ${report.pending.length} skipped` : line;
}
