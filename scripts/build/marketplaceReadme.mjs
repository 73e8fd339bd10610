// The README the VSIX carries (`vsce package --readme-path`): the repository's README up to its
// contributors' part. The Marketplace and VS Code's extension page show it to people installing the
// extension, who need what it does and how to use it, not how to build and test it (about a third
// of the README, 5 KB of the VSIX). The repository's README stays the one source for both.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the contributors' part starts: the rule and heading before `# For contributors`. */
const CONTRIBUTORS = /^---\n+# For contributors\n/m;

/** Said last instead of the contributors' part; vsce turns the relative link into the repository's. */
const POINTER =
  'Building the extension or running its tests: see [For contributors](README.md#for-contributors).\n';

/** The user's part of `readme` and a line that points to the rest; throws when the part is not found. */
export function marketplaceReadme(readme) {
  const start = readme.search(CONTRIBUTORS);
  if (start < 0)
    throw new Error('README.md has no "---" and "# For contributors" to cut the Marketplace README at');
  return `${readme.slice(0, start)}---\n\n${POINTER}`;
}

/** Writes the Marketplace README of `readmeFile` to `outFile`. */
export function writeMarketplaceReadme(readmeFile, outFile) {
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, marketplaceReadme(fs.readFileSync(readmeFile, 'utf8')));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [readmeFile = 'README.md', outFile = 'out/package/README.md'] = process.argv.slice(2);
  writeMarketplaceReadme(readmeFile, outFile);
}
