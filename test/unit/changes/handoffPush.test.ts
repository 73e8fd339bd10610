// "Push <branch>, then start": a real push to a local bare remote; never forced, and a refusal in
// git's words with no credential of the remote's URL in them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushToUpstream, PushFailedError } from '../../../src/changes/handoffPush';
import { commitAll, git, gitText, write } from './scratchRepo';

describe('changes: pushing the branch before a start', function () {
  this.timeout(30_000);
  let tmp: string;
  let origin: string;
  let local: string;

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'openhands-push-'));
    origin = join(tmp, 'origin.git');
    local = join(tmp, 'local');
    git(tmp, ['init', '-q', '--bare', '-b', 'main', origin]);
    git(tmp, ['init', '-q', '-b', 'main', local]);
    write(local, 'a.txt', 'a\n');
    commitAll(local, 'base');
    git(local, ['remote', 'add', 'origin', origin]);
    git(local, ['push', '-q', '-u', 'origin', 'main']);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('pushes the commits ahead to the upstream branch', async () => {
    write(local, 'a.txt', 'a, changed\n');
    commitAll(local, 'ahead');
    await pushToUpstream(local, 'main', { remote: 'origin', branch: 'main' });
    assert.equal(gitText(origin, ['rev-parse', 'main']), gitText(local, ['rev-parse', 'HEAD']));
  });

  it('never forces: a remote that moved on refuses, in git’s words, and keeps its commit', async () => {
    const other = join(tmp, 'other');
    git(tmp, ['clone', '-q', origin, other]);
    write(other, 'b.txt', 'someone else\n');
    commitAll(other, 'someone else');
    git(other, ['push', '-q', 'origin', 'main']);
    const theirs = gitText(origin, ['rev-parse', 'main']);
    write(local, 'a.txt', 'mine\n');
    commitAll(local, 'mine');
    await assert.rejects(
      () => pushToUpstream(local, 'main', { remote: 'origin', branch: 'main' }),
      (error) =>
        error instanceof PushFailedError && /rejected|fetch first|non-fast-forward/.test(error.message),
    );
    assert.equal(gitText(origin, ['rev-parse', 'main']), theirs);
  });

  it('a credential in the remote URL is not in the refusal', async () => {
    git(local, ['remote', 'set-url', 'origin', 'http://someone:sekret-token-77@127.0.0.1:9/nowhere.git']);
    await assert.rejects(
      () => pushToUpstream(local, 'main', { remote: 'origin', branch: 'main' }),
      (error) => error instanceof PushFailedError && !error.message.includes('sekret-token-77'),
    );
  });
});
