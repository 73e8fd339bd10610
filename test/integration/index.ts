// Entry point VS Code calls (extensionTestsPath): runs the bundled *.test.js files next to this file
// with mocha and writes a JSON report to $OPENHANDS_TEST_REPORT for the driver.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import Mocha from 'mocha';
import { REPORT_PATH_ENV, RESTRICTED_MODE_ENV, TEST_GREP_ENV, VIRTUAL_FOLDER_ENV } from './env';
import { summaryLine, type TestFailure, type TestOutcome, type TestReport } from './report';

/** The folders of the suite that run only in a VS Code of their own, each named by its driver's variable. */
const OWN_WINDOW_FOLDERS: Record<string, string> = {
  restricted: RESTRICTED_MODE_ENV,
  virtualFolder: VIRTUAL_FOLDER_ENV,
};

/**
 * The suite's files: restricted/ only in the untrusted VS Code, virtualFolder/ only in the one whose folder
 * is virtual, everything else in the trusted one with an ordinary folder.
 */
function testFiles(dir: string): string[] {
  const window = Object.entries(OWN_WINDOW_FOLDERS).find(
    ([, variable]) => process.env[variable] === '1',
  )?.[0];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .filter((file) => {
      const first = file.split(path.sep)[0] ?? '';
      return (first in OWN_WINDOW_FOLDERS ? first : undefined) === window;
    })
    .sort()
    .map((file) => path.join(dir, file));
}

function outcome(test: Mocha.Test | Mocha.Runnable): TestOutcome {
  return { title: test.title, fullTitle: test.fullTitle(), durationMs: test.duration };
}

function writeReport(report: TestReport): void {
  const file = process.env[REPORT_PATH_ENV];
  if (!file) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Write-then-rename: the driver polls for the file and must never read half of it.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(report, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

export function run(): Promise<void> {
  const started = Date.now();
  const report: TestReport = {
    vscodeVersion: vscode.version,
    uiKind: vscode.UIKind[vscode.env.uiKind],
    passes: [],
    failures: [],
    pending: [],
    durationMs: 0,
  };
  const grep = process.env[TEST_GREP_ENV];
  const mocha = new Mocha({
    ui: 'bdd',
    color: false,
    timeout: 20_000,
    reporter: 'spec',
    ...(grep ? { grep } : {}),
  });

  return new Promise<void>((resolve, reject) => {
    const finish = () => {
      report.durationMs = Date.now() - started;
      writeReport(report);
      const line = summaryLine(report);
      if (report.failures.length > 0) reject(new Error(line));
      else resolve();
    };
    try {
      for (const file of testFiles(__dirname)) mocha.addFile(file);
      const runner = mocha.run(() => finish());
      runner.on('pass', (test) => report.passes.push(outcome(test)));
      runner.on('pending', (test) => report.pending.push(outcome(test)));
      runner.on('fail', (test, error: Error) => {
        const failure: TestFailure = { ...outcome(test), message: error.message, stack: error.stack };
        report.failures.push(failure);
      });
    } catch (error) {
      // A suite file that throws while loading must still produce a report, not a silent hang.
      const err = error instanceof Error ? error : new Error(String(error));
      report.failures.push({
        title: 'load suite',
        fullTitle: 'load suite',
        message: err.message,
        stack: err.stack,
      });
      finish();
    }
  });
}
