// A user's repository with work its remote lacks, as the hand-off tests need it: two commits not
// pushed to its (bare, local) origin, a staged and an unstaged edit of one file, two new files (one the
// user ticks, one not) and an ignored `.env` holding a canary that must never leave the machine.
// Shared by the real-server client test and the e2e step, so both hand over the same state.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { git } from './sandboxWorkspace';

export interface LocalWork {
  /** The working copy (made by `makeLocalWork`, or the folder it was given). */
  root: string;
  origin: string;
  /** The new file the user ticks; `untickedFile` stays here. */
  tickedFile: string;
  untickedFile: string;
  /** Paths (as git spells them) the sandbox must hold, and what it must not. */
  handedPaths: string[];
  keptPaths: string[];
}

export function makeLocalWork(
  root: string,
  origin: string,
  canary: string,
  names: { ticked?: string } = {},
): LocalWork {
  const tickedFile = names.ticked ?? 'notes/ticked é.txt';
  const untickedFile = 'unticked.txt';
  fs.mkdirSync(root, { recursive: true });
  git(path.dirname(origin), 'init', '-q', '--bare', '-b', 'main', origin);
  git(root, 'init', '-q', '-b', 'main');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  const commit = (message: string) => {
    git(root, 'add', '--all');
    git(root, 'commit', '-q', '-m', message);
  };
  write('.gitignore', '.env\n');
  write('README.md', 'base\n');
  write('src/app.txt', 'one\ntwo\nthree\n');
  commit('base');
  git(root, 'remote', 'add', 'origin', origin);
  git(root, 'push', '-q', '-u', 'origin', 'main');
  write('src/feature.txt', 'a feature\n');
  commit('first commit not pushed');
  write('README.md', 'base, and more\n');
  commit('second commit not pushed');
  write('src/app.txt', 'one\ntwo (staged)\nthree\n');
  git(root, 'add', 'src/app.txt');
  write('src/app.txt', 'one\ntwo (staged)\nthree (unstaged)\n');
  write(tickedFile, 'handed over\n');
  write(untickedFile, 'stays here\n');
  write('.env', `SECRET=${canary}\n`);
  if (git(root, 'rev-list', '--count', 'origin/main..HEAD').trim() !== '2')
    throw new Error('the local work should be two commits ahead of its origin');
  return {
    root,
    origin,
    tickedFile,
    untickedFile,
    handedPaths: ['.gitignore', 'README.md', tickedFile, 'src/app.txt', 'src/feature.txt'].sort(),
    keptPaths: ['.env', untickedFile],
  };
}
