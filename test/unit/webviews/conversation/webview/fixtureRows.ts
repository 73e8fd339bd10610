// Rows as the conversation panel's host sends them (shared/rows.ts), generated: a long agent run
// with markdown messages, terminal commands with multi-line output, file edits with diffs, notices
// and unknown events, and the messages that carry them (reset, the newest chunk, older chunks).
import type { Header, HostToWebview } from '../../../../../src/webviews/conversation/shared/protocol';
import type {
  ActionRow,
  DiffLine,
  MessageRow,
  Row,
} from '../../../../../src/webviews/conversation/shared/rows';

/** The host's chunking (host/historySender.ts): the newest rows first, then older ones backwards. */
export const FIRST_CHUNK = 300;
export const OLDER_CHUNK = 1000;

export function header(overrides: Partial<Header> = {}): Header {
  return {
    conversationId: '5f0c2a9e1b3d4c6e8f7a9b0c1d2e3f40',
    title: 'Fix the flaky date parsing test and add coverage for time zones',
    executionStatus: 'running',
    sandboxStatus: 'RUNNING',
    model: 'litellm_proxy/claude-sonnet-4-5-20250929',
    feed: 'live',
    feedDetail: null,
    retryInMs: null,
    notice: null,
    canResume: false,
    eventCount: 0,
    controls: {
      confirmationPolicy: 'NeverConfirm',
      pendingActions: [],
      outbox: [],
      busy: null,
      rejected: false,
    },
    ...overrides,
  };
}

/** A small deterministic generator (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FILES = [
  'src/dates/parse.ts',
  'src/dates/format.ts',
  'tests/test_parse.py',
  'src/server/routes/events.ts',
  'README.md',
  'src/components/Timeline.tsx',
  'pyproject.toml',
];

const WORDS =
  'the parser reads the offset before the zone name so a date like 2024-03-10T02:30 in New York falls into the gap and the test fails only on the days daylight saving time changes which is why it looked flaky'.split(
    ' ',
  );

function sentence(next: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(next() * WORDS.length)] ?? 'the');
  const text = out.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function agentMarkdown(next: () => number, n: number): string {
  const kind = n % 5;
  if (kind === 0)
    return `I found the cause: ${sentence(next, 14)}\n\n- \`parse()\` assumes a fixed offset\n- the test uses \`America/New_York\`\n- ${sentence(next, 6)}\n\nSee [the tz database notes](https://data.iana.org/time-zones/tz-link.html) for details.`;
  if (kind === 1)
    return `### Plan\n\n1. ${sentence(next, 8)}\n2. ${sentence(next, 7)}\n3. Run the tests again.\n\n\`\`\`ts\nexport function parse(text: string, zone: string): Date {\n  const local = parseLocal(text);\n  return fromZoned(local, zone);\n}\n\`\`\``;
  if (kind === 2) return `${sentence(next, 18)} ${sentence(next, 12)}`;
  if (kind === 3)
    return `| Case | Before | After |\n| --- | --- | --- |\n| spring forward | fails | passes |\n| fall back | passes | passes |\n| UTC | passes | passes |\n\n> ${sentence(next, 10)}`;
  return `**Done.** ${sentence(next, 9)} The change is in \`${FILES[n % FILES.length]}\`.`;
}

function terminalOutput(
  next: () => number,
  n: number,
): { command: string; output: string; exitCode: number } {
  const kind = n % 4;
  if (kind === 0) {
    const lines = ['total 48'];
    for (let i = 0; i < 6 + Math.floor(next() * 10); i++)
      lines.push(`-rw-r--r--  1 openhands openhands  ${1000 + i * 37} Nov 23 19:4${i % 10} file_${i}.py`);
    return { command: 'ls -la src/dates', output: lines.join('\n'), exitCode: 0 };
  }
  if (kind === 1) {
    const lines = ['============================= test session starts =============================='];
    const count = 10 + Math.floor(next() * 30);
    for (let i = 0; i < count; i++)
      lines.push(
        `tests/test_parse.py::test_case_${i} ${next() < 0.1 ? 'FAILED' : 'PASSED'}    [${Math.round((i / count) * 100)}%]`,
      );
    const failed = n % 7 === 1;
    lines.push(
      failed
        ? '=========== 1 failed, 29 passed in 0.84s ==========='
        : '=========== 30 passed in 0.81s ===========',
    );
    return {
      command: 'python -m pytest tests/test_parse.py -q',
      output: lines.join('\n'),
      exitCode: failed ? 1 : 0,
    };
  }
  if (kind === 2)
    return {
      command: `grep -rn "fromZoned" src | head -20`,
      output: Array.from(
        { length: 3 + Math.floor(next() * 6) },
        (_, i) =>
          `src/dates/parse.ts:${10 + i * 7}:  return fromZoned(local, zone); // ${'x'.repeat(Math.floor(next() * 160))}`,
      ).join('\n'),
      exitCode: 0,
    };
  return {
    command: 'git status --short',
    output: ' M src/dates/parse.ts\n M tests/test_parse.py\n?? notes.md',
    exitCode: 0,
  };
}

function diffLines(next: () => number): { lines: DiffLine[]; added: number; removed: number } {
  const lines: DiffLine[] = [
    { op: '…', text: '12 lines' },
    { op: ' ', text: 'export function parse(text: string, zone: string): Date {' },
    { op: '-', text: '  const offset = fixedOffset(zone);' },
    { op: '-', text: '  return new Date(Date.parse(text) - offset);' },
    { op: '+', text: '  const local = parseLocal(text);' },
    { op: '+', text: '  return fromZoned(local, zone);' },
    { op: ' ', text: '}' },
  ];
  let added = 2;
  const extra = Math.floor(next() * 8);
  for (let i = 0; i < extra; i++) {
    lines.push({ op: '+', text: `  // handle case ${i}: ${'y'.repeat(Math.floor(next() * 60))}` });
    added++;
  }
  return { lines, added, removed: 2 };
}

/**
 * About `events` events as rows: an action and its observation are one row (two events), so 10,000
 * events make about 6,000 rows. Row ids are `r<index>`; the last row is the newest.
 */
export function generateRows(events: number, seed = 1): Row[] {
  const next = random(seed);
  const rows: Row[] = [];
  let used = 0;
  let n = 0;
  const stamp = (i: number) => {
    const seconds = i % 60;
    const minutes = Math.floor(i / 60) % 60;
    const hours = 8 + (Math.floor(i / 3600) % 12);
    return `2026-11-23T${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}.123456`;
  };
  while (used < events) {
    const id = `r${n}`;
    const timestamp = stamp(n);
    const pick = next();
    if (n % 40 === 0) {
      rows.push({
        id,
        timestamp,
        kind: 'message',
        role: 'user',
        markdown: `Please look at this next: ${sentence(next, 10)}`,
      });
      used += 1;
    } else if (pick < 0.24) {
      const message: MessageRow = {
        id,
        timestamp,
        kind: 'message',
        role: 'agent',
        markdown: agentMarkdown(next, n),
      };
      if (n % 13 === 0) message.reasoning = sentence(next, 30);
      rows.push(message);
      used += 1;
    } else if (pick < 0.62) {
      const { command, output, exitCode } = terminalOutput(next, n);
      const clipped = n % 29 === 0;
      const row: ActionRow = {
        id,
        timestamp,
        kind: 'action',
        tool: 'terminal',
        summary: `terminal: ${command}`,
        risk: n % 17 === 0 ? 'MEDIUM' : 'LOW',
        state: exitCode === 0 ? 'done' : 'failed',
        terminal: {
          command,
          output: clipped ? `${output}\n${'… more output …\n'.repeat(40)}` : output,
          exitCode,
          ...(clipped ? { outputClip: { fullLength: 48_211 } } : {}),
        },
      };
      if (n % 3 === 0) row.thought = sentence(next, 16);
      rows.push(row);
      used += 2;
    } else if (pick < 0.86) {
      const diff = diffLines(next);
      const path = FILES[n % FILES.length] ?? 'a.ts';
      rows.push({
        id,
        timestamp,
        kind: 'action',
        tool: 'file_editor',
        summary: `Edit ${path}`,
        risk: 'LOW',
        state: 'done',
        edit: { path, command: 'str_replace', created: false, ...diff },
      });
      used += 2;
    } else if (pick < 0.92) {
      rows.push({
        id,
        timestamp,
        kind: 'action',
        tool: 'task_tracker',
        summary: 'Update the task list',
        risk: 'UNKNOWN',
        state: 'done',
        result: '1. [done] find the cause\n2. [in progress] fix parse()\n3. [todo] add tests',
      });
      used += 2;
    } else if (pick < 0.96) {
      const level = n % 3 === 0 ? 'warning' : n % 5 === 0 ? 'error' : 'info';
      rows.push({
        id,
        timestamp,
        kind: 'notice',
        level,
        title:
          level === 'info'
            ? 'Earlier history condensed (42 events summarised for the model)'
            : 'The agent hit an error',
        detail: sentence(next, level === 'info' ? 60 : 12),
      });
      used += 1;
    } else {
      rows.push({
        id,
        timestamp,
        kind: 'generic',
        eventKind: 'BrowserObservation',
        source: 'environment',
        summary: sentence(next, 8),
      });
      used += 1;
    }
    n++;
  }
  return rows;
}

/** What the host sends after `ready`: a reset, the newest rows, then older chunks backwards. */
export function resendMessages(rows: readonly Row[], epoch: number, head: Header): HostToWebview[] {
  const messages: HostToWebview[] = [{ type: 'reset', epoch, rev: 0, header: head }];
  let rev = 0;
  let end = rows.length;
  let start = Math.max(0, end - FIRST_CHUNK);
  if (end > 0) messages.push({ type: 'rows', epoch, rev: ++rev, at: 'end', rows: rows.slice(start, end) });
  while (start > 0) {
    end = start;
    start = Math.max(0, end - OLDER_CHUNK);
    messages.push({ type: 'rows', epoch, rev: ++rev, at: 'start', rows: rows.slice(start, end) });
  }
  return messages;
}

/** One row of every kind and state, for the screenshots and the look of the page. */
export function showcaseRows(): Row[] {
  const t = (s: number) => `2026-11-23T19:49:${String(s).padStart(2, '0')}.000001`;
  return [
    {
      id: 's1',
      timestamp: t(1),
      kind: 'message',
      role: 'user',
      markdown: 'The date tests fail on some days. Can you find out why and fix `parse()`?',
    },
    {
      id: 's2',
      timestamp: t(2),
      kind: 'notice',
      level: 'info',
      title: 'The agent started with 6 tools',
    },
    {
      id: 's2b',
      timestamp: t(3),
      kind: 'message',
      role: 'environment',
      markdown: 'Workspace mounted at /workspace/project (branch fix-dates)',
    },
    {
      id: 's3',
      timestamp: t(4),
      kind: 'action',
      tool: 'terminal',
      summary: 'Run the date tests',
      thought: 'First, reproduce the failure.',
      risk: 'LOW',
      state: 'failed',
      terminal: {
        command: 'python -m pytest tests/test_parse.py -q',
        output:
          '..F.....\n=================================== FAILURES ===================================\n___________________________ test_spring_forward ____________________________\n    assert parse("2024-03-10T02:30", "America/New_York") == expected\nE   AssertionError: 2024-03-10 07:30:00+00:00 != 2024-03-10 06:30:00+00:00\n1 failed, 7 passed in 0.42s',
        exitCode: 1,
      },
    },
    {
      id: 's4',
      timestamp: t(9),
      kind: 'message',
      role: 'agent',
      markdown:
        'Found it: `parse()` applies a **fixed offset**, so times in the daylight-saving gap are off by an hour.\n\n1. Resolve the zone with the tz database\n2. Add tests for both transitions\n\nSee [the tz notes](https://data.iana.org/time-zones/tz-link.html).\n\n```ts\nreturn fromZoned(parseLocal(text), zone);\n```',
      reasoning: 'The failure only happens for 02:00–03:00 local time on the spring transition day.',
    },
    {
      id: 's5',
      timestamp: t(12),
      kind: 'action',
      tool: 'file_editor',
      summary: 'Edit src/dates/parse.ts',
      risk: 'LOW',
      state: 'done',
      edit: {
        path: 'src/dates/parse.ts',
        command: 'str_replace',
        created: false,
        lines: [
          { op: '…', text: '10 lines' },
          { op: ' ', text: 'export function parse(text: string, zone: string): Date {' },
          { op: '-', text: '  return new Date(Date.parse(text) - fixedOffset(zone));' },
          { op: '+', text: '  const local = parseLocal(text);' },
          { op: '+', text: '  return fromZoned(local, zone);' },
          { op: ' ', text: '}' },
        ],
        added: 2,
        removed: 1,
      },
    },
    {
      id: 's6',
      timestamp: t(15),
      kind: 'action',
      tool: 'terminal',
      summary: 'Run the date tests again',
      risk: 'LOW',
      state: 'done',
      terminal: {
        command: 'python -m pytest tests/test_parse.py -q',
        output: '........\n8 passed in 0.40s',
        exitCode: 0,
      },
    },
    {
      id: 's7',
      timestamp: t(18),
      kind: 'action',
      tool: 'terminal',
      summary: 'Push the branch',
      risk: 'HIGH',
      state: 'rejected',
      terminal: { command: 'git push --force origin fix-dates' },
      result: 'Not on the shared branch, please',
    },
    {
      id: 's8',
      timestamp: t(20),
      kind: 'notice',
      level: 'warning',
      title: 'Interrupted by the user',
    },
    {
      id: 's9',
      timestamp: t(21),
      kind: 'generic',
      eventKind: 'BrowserObservation',
      source: 'environment',
      summary: 'Page loaded: https://example.com',
    },
    {
      id: 's10',
      timestamp: t(24),
      kind: 'action',
      tool: 'terminal',
      summary: 'Run the whole suite',
      risk: 'MEDIUM',
      state: 'pending',
      terminal: { command: 'npm test' },
    },
    {
      id: 'streaming',
      timestamp: '',
      kind: 'streaming',
      text: 'All 214 tests pass. Next I will add a test for the fall-back transition',
    },
  ];
}
