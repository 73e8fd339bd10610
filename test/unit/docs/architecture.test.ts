// docs/architecture.md names files, code and commands so that a newcomer can follow a path through the
// house; each name must still be there (scripts/docs/docNames.ts), or the walk leads nowhere.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { missingNames, repositoryAt, type Repository } from '../../../scripts/docs/docNames';

describe('docs/architecture.md (names)', () => {
  const repository = repositoryAt(process.cwd());

  it('names only files, folders, code names and commands that exist', () => {
    const missing = missingNames(fs.readFileSync('docs/architecture.md', 'utf8'), repository);
    assert.deepEqual(
      missing.map(({ name, line, why }) => `line ${line}: ${name} (${why})`),
      [],
    );
  });

  it('finds what was renamed or moved away, and passes over routes, values and code blocks', () => {
    const tiny: Repository = {
      exists: (relative) => ['src/state/store.ts', 'src/state'].includes(relative),
      words: new Set(['OpenHandsStore', 'onWillSteer', 'openhands.refresh', 'refresh']),
    };
    const doc = [
      '`src/state/store.ts` holds `OpenHandsStore`; it fires `onDidSteer` (`state/gone.ts`).',
      'It reads `/api/git/changes`, says `needs-key`, runs `openhands.refresh` and not `openhands.nothing`.',
      '```',
      '`src/never/checked.ts`',
      '```',
      'A `.png` name, the `src/state/` folder, `OpenHandsStore.refresh()`.',
    ].join('\n');
    assert.deepEqual(
      missingNames(doc, tiny).map(({ name, line }) => `${line}:${name}`),
      ['1:onDidSteer', '1:state/gone.ts', '2:openhands.nothing'],
    );
  });
});
