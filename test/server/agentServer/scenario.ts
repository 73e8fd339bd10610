// What the scripted agent "does": the thought, the command and its output, the edit and the final
// message. Live runs use RUN_SCENARIO; seeded transcripts draw varied ones from a Prng.
import type { Prng } from '../prng';
import type { SecurityRisk } from './records';

export interface TerminalStep {
  command: string;
  output: string;
  exitCode: number;
  securityRisk: SecurityRisk;
}

export interface EditStep {
  /** Relative to the workspace directory. */
  file: string;
  oldStr: string;
  newStr: string;
  /** The whole file before the edit (contains oldStr once). */
  before: string;
}

export interface Scenario {
  thought: string;
  terminal: TerminalStep;
  edit: EditStep;
  finish: string;
  /** Streamed before the first action of a fresh run (content of the second delta). */
  streamed: string;
}

export const RUN_SCENARIO: Scenario = {
  thought: 'The script says: look around, run one command, make one edit, then finish.',
  terminal: {
    command: 'echo scripted-agent-was-here && ls',
    output: 'scripted-agent-was-here\nREADME.md\npackage.json\nsrc\ntest',
    exitCode: 0,
    securityRisk: 'LOW',
  },
  edit: {
    file: 'src/greeting.ts',
    oldStr: "const greeting = 'Hello';",
    newStr: "const greeting = 'Hello, OpenHands';",
    before:
      "// Greets the user.\nconst greeting = 'Hello';\n\nexport function greet(name: string): string {\n  return `${greeting}, ${name}!`;\n}\n",
  },
  finish: 'Done: I ran one command and updated the greeting in src/greeting.ts.',
  streamed: 'Let me look at the repository first.',
};

const THOUGHTS = [
  'I should read the failing test first, then find where the behaviour is implemented.',
  'The bug is probably in the date handling: the scheduler mixes local and UTC times.',
  'Plan: reproduce the problem, write a failing test, fix it, run the whole suite.',
  'Two options: patch the call site or fix the helper. Fixing the helper covers every caller.',
];

const TERMINALS: readonly TerminalStep[] = [
  {
    command: 'git status --short && git log --oneline -3',
    output:
      ' M src/scheduler.ts\n?? notes.md\n4f1c2ab Fix flaky retry test\n98d0e11 Add scheduler metrics\n1a2b3c4 Initial commit',
    exitCode: 0,
    securityRisk: 'LOW',
  },
  {
    command: 'npm test -- --grep scheduler',
    output:
      '> webapp@2.4.0 test\n> mocha --grep scheduler\n\n  scheduler\n    ✓ runs jobs in order\n    1) keeps the time zone of the job\n\n  1 passing (41ms)\n  1 failing\n\n  1) scheduler\n       keeps the time zone of the job:\n     AssertionError: expected 9 to equal 10',
    exitCode: 1,
    securityRisk: 'LOW',
  },
  {
    command: 'grep -rn "toISOString" src | head -5',
    output:
      'src/scheduler.ts:42:    const at = job.date.toISOString();\nsrc/report.ts:17:  return new Date().toISOString();',
    exitCode: 0,
    securityRisk: 'LOW',
  },
  {
    command: 'python -m pytest tests/test_orders.py -q',
    output:
      'F..\n=================================== FAILURES ===================================\n___________________________ test_orders_query_count ____________________________\nE       AssertionError: 41 queries executed, expected at most 3\n1 failed, 2 passed in 0.42s',
    exitCode: 1,
    securityRisk: 'LOW',
  },
];

const EDITS: readonly EditStep[] = [
  {
    file: 'src/scheduler.ts',
    oldStr: '    const at = job.date.toISOString();',
    newStr: '    const at = formatInZone(job.date, job.timeZone);',
    before:
      "import { formatInZone } from './time';\n\nexport function schedule(job: Job): string {\n    const at = job.date.toISOString();\n    return `${job.name}@${at}`;\n}\n",
  },
  {
    file: 'app/orders.py',
    oldStr: '    orders = Order.objects.filter(user=user)',
    newStr: "    orders = Order.objects.filter(user=user).select_related('customer')",
    before:
      'from .models import Order\n\n\ndef orders_for(user):\n    orders = Order.objects.filter(user=user)\n    return [order.summary() for order in orders]\n',
  },
  {
    file: 'README.md',
    oldStr: '## Setup\n\nRun the app.',
    newStr: '## Setup\n\n1. `npm ci`\n2. `npm run dev`\n3. Open http://localhost:3000',
    before: '# Webapp\n\n## Setup\n\nRun the app.\n\n## License\n\nMIT\n',
  },
];

const FINISHES = [
  'Fixed the time zone handling in the scheduler and added a regression test. All tests pass.',
  'The N+1 query is gone: orders now load their customers in one query (3 queries instead of 41).',
  'Updated the README setup section with the three commands a new developer needs.',
];

/** Commands a seeded conversation waits to run (they need confirmation), with what they print. */
export const CONFIRMABLE_COMMANDS: readonly TerminalStep[] = [
  {
    command: 'git push origin HEAD',
    output: 'To github.com:acme/webapp.git\n   4f1c2ab..9e8d7c6  HEAD -> fix/flaky-login',
    exitCode: 0,
    securityRisk: 'HIGH',
  },
  {
    command: 'rm -rf node_modules && npm ci',
    output: 'added 812 packages, and audited 813 packages in 14s\n\nfound 0 vulnerabilities',
    exitCode: 0,
    securityRisk: 'MEDIUM',
  },
  {
    command: 'npm run build',
    output:
      '> webapp@2.4.0 build\n> vite build\n\n✓ 412 modules transformed.\ndist/index.html  0.46 kB\n✓ built in 3.21s',
    exitCode: 0,
    securityRisk: 'LOW',
  },
];

/** What a command prints when the double runs it (scripted ones are known; others just succeed). */
export function terminalResult(command: string): { output: string; exitCode: number } {
  const known = [RUN_SCENARIO.terminal, ...TERMINALS, ...CONFIRMABLE_COMMANDS].find(
    (step) => step.command === command,
  );
  return known ? { output: known.output, exitCode: known.exitCode } : { output: '', exitCode: 0 };
}

/** The file a scripted edit applies to, before the edit; unknown files hold just the old text. */
export function fileBefore(file: string, oldStr: string): string {
  const known = [RUN_SCENARIO.edit, ...EDITS].find((edit) => file.endsWith(`/${edit.file}`));
  return known && known.before.includes(oldStr) ? known.before : `${oldStr}\n`;
}

export function seededScenario(random: Prng): Scenario {
  return {
    thought: random.pick(THOUGHTS),
    terminal: random.pick(TERMINALS),
    edit: random.pick(EDITS),
    finish: random.pick(FINISHES),
    streamed: 'Let me start by looking at the code.',
  };
}

/** The file after an edit (first occurrence replaced, as str_replace requires a unique match). */
export function afterEdit(edit: EditStep): string {
  return edit.before.replace(edit.oldStr, edit.newStr);
}

/** The markdown reply one seeded conversation ends with; a client must sanitise the HTML in it. */
export const MARKDOWN_REPLY = [
  '## Summary',
  '',
  'I fixed the flaky login test. Changes:',
  '',
  '- `test/login.spec.ts`: wait for the **redirect** instead of a fixed delay',
  '- `src/auth/session.ts`: refresh the token *before* it expires',
  '',
  '```ts',
  "await page.waitForURL('**/dashboard');",
  '```',
  '',
  'See the [Playwright docs](https://playwright.dev/docs/navigations) for details.',
  '',
  '<img src=x onerror=alert(1)>',
  '<script>alert("xss")</script>',
].join('\n');

/** About 200 KB of build output: a panel must clip it, not freeze. */
let largeOutput: string | null = null;
export function largeTerminalOutput(): string {
  if (largeOutput === null) {
    const lines: string[] = [];
    for (let index = 0; index < 4000; index++) {
      lines.push(
        `[build] compiled src/module-${String(index).padStart(4, '0')}.ts in ${(index * 7) % 97} ms (ok)`,
      );
    }
    largeOutput = lines.join('\n');
  }
  return largeOutput;
}
