/**
 * A built hand-off delivered to a conversation's sandbox through its agent server: the parts uploaded
 * to a scratch folder there, the replay run with `execute_bash_command`, the result checked against the
 * tree the user handed over, the scratch folder removed. Plain Node: the caller says what happened.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentServerClient, BashOutput } from '../api';
import type { HandoffManifest } from './handoffManifest';
import {
  parseRecordOutput,
  parseVerifyOutput,
  recordCommand,
  replayScript,
  shellQuote,
  VERIFY_COMMAND,
  type VerifiedFile,
} from './handoffReplay';

export type DeliveryStep = 'reach' | 'upload' | 'replay' | 'verify';

export interface DeliveryOptions {
  /**
   * The working copy's folder inside the conversation's working folder: for `commits`, the clone the
   * server made (the repository's name); for `archive`, a folder of its own (made by the replay).
   */
  workingCopyName: string;
  signal?: AbortSignal;
  /** Told as each step starts (for the progress the user sees). */
  onStep?: (step: DeliveryStep) => void;
}

export interface Delivered {
  /** The working copy's absolute path in the sandbox. */
  workingCopy: string;
  /** Every file there, as the sandbox's git sees it (what the verify step printed). */
  files: VerifiedFile[];
  /**
   * The sandbox's commit of the handed-over tree (`HANDED_OVER_REF` there): the base its git routes
   * diff against, so Apply and the Changes list hold only the agent's work.
   */
  baseCommit: string;
}

/** A delivery that stopped: at which step, and why in words (the sandbox's own output cut and cleaned). */
export class HandoffDeliveryError extends Error {
  constructor(
    readonly step: DeliveryStep,
    message: string,
  ) {
    super(message);
    this.name = 'HandoffDeliveryError';
  }
}

/** The replay runs git over the whole tree (a 50 MB hand-off): minutes, not seconds. */
const REPLAY_SECONDS = 600;
const QUICK_SECONDS = 60;
/** The verify listing (about 60 bytes a file): a repository of a million files fits. */
const MAX_LISTING_BYTES = 64 * 1024 * 1024;
/** How much of a failed command's output a message quotes. */
const QUOTED_CHARS = 400;

export async function deliverHandoff(
  client: AgentServerClient,
  handoff: { manifest: HandoffManifest; folder: string },
  options: DeliveryOptions,
): Promise<Delivered> {
  const { manifest } = handoff;
  const name = options.workingCopyName;
  if (name === '' || name === '.' || name === '..' || /[/\0\n]/.test(name)) {
    throw new HandoffDeliveryError('reach', `"${name}" cannot name the working copy's folder.`);
  }
  const signal = options.signal;
  const run = (command: string, cwd: string | undefined, timeoutSeconds: number) =>
    client.executeBashCommand(command, { cwd, timeoutSeconds, signal });

  options.onStep?.('reach');
  const info = await client.getConversation({ signal });
  // `.` in a process sandbox: the agent server's own folder, which `pwd` names absolutely.
  const workingDir = info.workspace?.working_dir;
  // An archive goes to a folder of its own: the first of `name`, `name-2`… not there yet (a process
  // sandbox keeps the agent server's own `workspace/` beside it, which a folder named so would join).
  // A `commits` hand-off goes to the clone the server made, which is there.
  const candidates = manifest.kind === 'archive' ? freeNames(name) : [name];
  const chosen = (candidate: string) =>
    `{ printf '%s\\n%s\\n' "$base" ${shellQuote(candidate)} && mktemp -d; exit $?; }`;
  const where = await run(
    [
      'base="$(pwd -P)" || exit 1',
      ...(manifest.kind === 'archive'
        ? [
            ...candidates.map((candidate) => `[ -e ${shellQuote(candidate)} ] || ${chosen(candidate)}`),
            'exit 3',
          ]
        : [chosen(name)]),
    ].join('\n'),
    workingDir,
    QUICK_SECONDS,
  );
  const [base, folder, partsFolder] = (where.stdout ?? '').split('\n');
  if (where.exit_code === 3) {
    throw new HandoffDeliveryError(
      'reach',
      `The sandbox already has folders named ${name} up to ${candidates.at(-1)}: remove some, or rename your folder.`,
    );
  }
  if (
    where.exit_code !== 0 ||
    !base?.startsWith('/') ||
    !partsFolder?.startsWith('/') ||
    folder === undefined ||
    !candidates.includes(folder)
  ) {
    throw new HandoffDeliveryError('reach', `The sandbox did not say where to put your work${said(where)}`);
  }
  const workingCopy = `${base.replace(/\/+$/, '')}/${folder}`;
  try {
    options.onStep?.('upload');
    for (const part of manifest.parts) {
      const content = await readFile(join(handoff.folder, part.name));
      await client.uploadFile(`${partsFolder}/${part.name}`, content, { signal });
    }

    options.onStep?.('replay');
    const replayed = await run(replayScript(manifest, { workingCopy, partsFolder }), base, REPLAY_SECONDS);
    if (replayed.exit_code !== 0) {
      throw new HandoffDeliveryError('replay', `The sandbox could not rebuild your work${said(replayed)}`);
    }

    options.onStep?.('verify');
    // The listing goes to a file read back whole: a reply carries only the last MiB of a command's output.
    const listingPath = `${partsFolder}/verify.out`;
    const verified = await run(`${VERIFY_COMMAND} > ${shellQuote(listingPath)}`, workingCopy, REPLAY_SECONDS);
    const listing =
      verified.exit_code === 0
        ? await client.downloadFile(listingPath, { signal, maxBytes: MAX_LISTING_BYTES })
        : undefined;
    const parsed = listing ? parseVerifyOutput(listing.toString('utf8')) : undefined;
    if (!parsed) {
      throw new HandoffDeliveryError(
        'verify',
        `The sandbox could not list what it received${said(verified)}`,
      );
    }
    if (parsed.tree !== manifest.handedOver.tree) {
      throw new HandoffDeliveryError(
        'verify',
        `The sandbox holds other files than you handed over (tree ${parsed.tree.slice(0, 12)}, not ${manifest.handedOver.tree.slice(0, 12)}).`,
      );
    }
    // The tree's objects are in the sandbox now (the verify step wrote them): a commit of it is cheap.
    const recorded = await run(recordCommand(parsed.tree), workingCopy, QUICK_SECONDS);
    const baseCommit = recorded.exit_code === 0 ? parseRecordOutput(recorded.stdout ?? '') : undefined;
    if (!baseCommit) {
      throw new HandoffDeliveryError(
        'verify',
        `The sandbox could not keep a commit of what you handed over${said(recorded)}`,
      );
    }
    return { workingCopy, files: parsed.files, baseCommit };
  } finally {
    // The parts are copies of the user's work: they go whatever happened (a failure here changes nothing).
    await run(`rm -rf -- ${shellQuote(partsFolder)}`, undefined, QUICK_SECONDS).catch(() => undefined);
  }
}

/** How many folder names an archive hand-off tries in the sandbox before it gives up. */
const MAX_FOLDER_NAMES = 10;

function freeNames(name: string): string[] {
  return [name, ...Array.from({ length: MAX_FOLDER_NAMES - 1 }, (_, index) => `${name}-${index + 2}`)];
}

/** `: <the end of its error output>` (control characters out), or `.` when it said nothing. */
function said(output: BashOutput): string {
  const text = [...(output.stderr || output.stdout || '')]
    .filter((char) => char === '\n' || char === '\t' || !isControl(char.codePointAt(0) ?? 0))
    .join('');
  const exit = output.exit_code === -1 ? ' (it ran out of time)' : '';
  const tail = text.trim().slice(-QUOTED_CHARS);
  return tail ? `${exit}: ${tail}` : `${exit}.`;
}

const isControl = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);
