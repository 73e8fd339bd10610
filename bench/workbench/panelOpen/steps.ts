// What the panel-opening probe (in the extension host) and its driver (plain Node, with the browser)
// share: the steps a window takes and the files they talk through (no vscode here).
import * as path from 'node:path';

export const STEPS_DIR_ENV = 'OPENHANDS_BENCH_PANEL_STEPS';
/** `<events>=<conversation id>,…`: the conversations the driver seeded, by length. */
export const CONVERSATIONS_ENV = 'OPENHANDS_BENCH_PANEL_CONVERSATIONS';

/** The empty page's paragraph, which the driver waits for. */
export const EMPTY_MARKER_ID = 'openhands-empty';

/** An empty webview, or a conversation's panel of so many events. */
export type StepKind = { kind: 'empty'; warmUp: boolean } | { kind: 'panel'; events: number };

/** Written by the probe once it ran the step's command: `openedAt`, epoch ms by the host's clock. */
export type Opened = StepKind & { openedAt: number; conversationId?: string };

/** Written by the driver once it saw the step painted (epoch ms, by the page's clock). */
export interface Seen {
  /** The empty page's paragraph, or the newest event's row, painted. */
  paintedAt: number;
  /** The oldest event's row painted, scrolled to the top (panels only). */
  oldestAt?: number;
  /** The page's own marks and resource timings, by name, in epoch ms. */
  page?: Record<string, number>;
}

/** Written by the probe after `Seen`: the extension host's marks of the opening (epoch ms). */
export type HostMarks = Record<string, number>;

export function openedFile(dir: string, step: number): string {
  return path.join(dir, `${step}.opened.json`);
}
export function seenFile(dir: string, step: number): string {
  return path.join(dir, `${step}.seen.json`);
}
export function hostFile(dir: string, step: number): string {
  return path.join(dir, `${step}.host.json`);
}
export function errorFile(dir: string): string {
  return path.join(dir, 'error.txt');
}

/** The steps of one window: an empty webview to warm the window up, then each length's floor and panel. */
export function windowSteps(lengths: readonly number[]): StepKind[] {
  return [
    { kind: 'empty', warmUp: true },
    ...lengths.flatMap((events): StepKind[] => [
      { kind: 'empty', warmUp: false },
      { kind: 'panel', events },
    ]),
  ];
}

/** The conversations as the env carries them. */
export function conversationsFromEnv(value: string | undefined): Map<number, string> {
  const map = new Map<number, string>();
  for (const pair of (value ?? '').split(',')) {
    const [events, id] = pair.split('=');
    if (events && id) map.set(Number(events), id);
  }
  return map;
}
