import assert from 'node:assert/strict';
import { parseGitRemote } from '../../../src/conversations/gitRemote';

describe('git remote parsing', () => {
  const cases: [string, ReturnType<typeof parseGitRemote>][] = [
    [
      'https://github.com/acme/webapp.git',
      { repository: 'acme/webapp', host: 'github.com', provider: 'github' },
    ],
    ['git@github.com:acme/webapp.git', { repository: 'acme/webapp', host: 'github.com', provider: 'github' }],
    [
      'ssh://git@gitlab.com/group/sub/project.git',
      { repository: 'group/sub/project', host: 'gitlab.com', provider: 'gitlab' },
    ],
    [
      'https://bitbucket.org/team/repo',
      { repository: 'team/repo', host: 'bitbucket.org', provider: 'bitbucket' },
    ],
    [
      'https://git.internal.example/team/repo/',
      { repository: 'team/repo', host: 'git.internal.example', provider: undefined },
    ],
  ];
  for (const [remote, expected] of cases) {
    it(remote, () => assert.deepEqual(parseGitRemote(remote), expected));
  }

  it('rejects what is not a repository remote', () => {
    assert.equal(parseGitRemote(''), undefined);
    assert.equal(parseGitRemote('https://github.com/'), undefined);
    assert.equal(parseGitRemote('/local/path/repo'), undefined);
  });
});
