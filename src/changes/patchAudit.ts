import { describeRefusals } from './applyRefused';
import { checkPatch, refusedPaths } from './patchGuard';
import { readPatchSections } from './patchSections';

/**
 * What Apply would refuse in `patch`, judged by its text alone (no repository at hand: a saved patch),
 * as one line; undefined when nothing.
 */
export async function auditPatch(patch: Buffer): Promise<string | undefined> {
  const reading = readPatchSections(patch);
  const refused = refusedPaths(await checkPatch(reading), reading);
  return refused.length > 0 ? describeRefusals(refused) : undefined;
}

/**
 * Comment lines for the top of a saved patch (git apply skips text before the first file). Control
 * characters are escaped: a name holding a newline must not start a line of its own.
 */
export function patchWarningLines(warning: string): string {
  const oneLine = warning.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f]/gu,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return (
    '# OpenHands: this patch holds changes that Apply to Local Repository refuses (outside the repository,\n' +
    '# into .git or through a link). Read it before applying it by hand:\n' +
    `# ${oneLine}\n`
  );
}
