// Where the repository's files are, for tests run from their sources (mocha, tsx): the root by this
// file's own place, so a test's folder depth (test/unit mirrors src) never shows in its paths.
import * as path from 'node:path';

export const REPOSITORY_ROOT = path.resolve(__dirname, '..', '..');
/** test/fixtures: the data tests read, copied in (tests read nothing outside the repository). */
export const FIXTURES = path.join(REPOSITORY_ROOT, 'test', 'fixtures');
