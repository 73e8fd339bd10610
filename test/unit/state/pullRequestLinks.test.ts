import * as assert from 'node:assert/strict';
import {
  MAX_PULL_REQUESTS,
  agentBranch,
  pullRequestUrl,
  pullRequestsOf,
} from '../../../src/state/pullRequestLinks';
import { conversation } from './appRecords';

describe('pullRequestLinks', () => {
  describe('pullRequestUrl', () => {
    it('links a GitHub, a GitLab (nested groups) and a Bitbucket PR on the public hosts', () => {
      assert.equal(pullRequestUrl('github', 'acme/app', 12), 'https://github.com/acme/app/pull/12');
      assert.equal(
        pullRequestUrl('gitlab', 'acme/platform/tools/app', 7),
        'https://gitlab.com/acme/platform/tools/app/-/merge_requests/7',
      );
      assert.equal(
        pullRequestUrl('bitbucket', 'acme/app.web', 3),
        'https://bitbucket.org/acme/app.web/pull-requests/3',
      );
    });

    it('uses the host the server’s provider token names (self-hosted), with its scheme and port', () => {
      assert.equal(
        pullRequestUrl('github', 'acme/app', 12, { github: 'github.acme.example' }),
        'https://github.acme.example/acme/app/pull/12',
      );
      assert.equal(
        pullRequestUrl('gitlab', 'group/sub/app', 4, { gitlab: 'http://GitLab.internal:8929/' }),
        'http://gitlab.internal:8929/group/sub/app/-/merge_requests/4',
      );
      // null: the provider's public host
      assert.equal(
        pullRequestUrl('bitbucket', 'acme/app', 5, { bitbucket: null }),
        'https://bitbucket.org/acme/app/pull-requests/5',
      );
    });

    it('makes no link for a provider it cannot link, or none', () => {
      for (const provider of ['azure_devops', 'forgejo', 'bitbucket_data_center', 'enterprise_sso', '', null])
        assert.equal(pullRequestUrl(provider, 'acme/app', 12), null, String(provider));
      assert.equal(pullRequestUrl('github', null, 12), null);
    });

    it('makes no link from a hostile repository', () => {
      const hostile = [
        '../../evil/app',
        'acme/..',
        'acme/./app',
        'acme/app name',
        'acme/app?x=1',
        'acme/app#frag',
        'acme/app/../../x',
        'acme//app',
        '/acme/app',
        'acme',
        'acme/app\nLocation: x',
        'javascript:alert(1)/x',
        'acme/-app',
        'acme/app%2F..',
      ];
      for (const repository of hostile)
        assert.equal(pullRequestUrl('gitlab', repository, 1), null, JSON.stringify(repository));
      // GitHub and Bitbucket have no groups: three segments are not theirs
      assert.equal(pullRequestUrl('github', 'a/b/c', 1), null);
      assert.equal(pullRequestUrl('bitbucket', 'a/b/c', 1), null);
    });

    it('makes no link on a hostile host', () => {
      const hostile = [
        'javascript:alert(1)',
        'javascript://github.com/%0aalert(1)',
        'file:///etc',
        'ftp://github.com',
        'evil.example/path',
        'user@evil.example',
        'github.com:99999',
        'host with space',
        '-evil.example',
        'evil..example',
        'https://evil.example/../x',
      ];
      for (const host of hostile)
        assert.equal(pullRequestUrl('github', 'acme/app', 1, { github: host }), null, host);
    });

    it('makes no link for a number that is not a PR’s', () => {
      for (const number of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2])
        assert.equal(pullRequestUrl('github', 'acme/app', number), null, String(number));
    });
  });

  describe('pullRequestsOf', () => {
    it('lists each PR once, in order, linked where it can be', () => {
      const listed = pullRequestsOf(
        conversation(1, { git_provider: 'github', selected_repository: 'acme/app', pr_number: [12, 14, 12] }),
      );
      assert.deepEqual(listed, [
        { number: 12, url: 'https://github.com/acme/app/pull/12' },
        { number: 14, url: 'https://github.com/acme/app/pull/14' },
      ]);
    });

    it('names a PR without a link on a provider it cannot link', () => {
      const listed = pullRequestsOf(
        conversation(1, { git_provider: 'azure_devops', selected_repository: 'org/project', pr_number: [9] }),
      );
      assert.deepEqual(listed, [{ number: 9, url: null }]);
    });

    it('keeps at most MAX_PULL_REQUESTS and drops numbers that are not PRs', () => {
      const numbers = [-3, 0, ...Array.from({ length: 100 }, (_, index) => index + 1)];
      const listed = pullRequestsOf(conversation(1, { pr_number: numbers }));
      assert.equal(listed.length, MAX_PULL_REQUESTS);
      assert.equal(listed[0]?.number, 1);
    });
  });

  it('agentBranch: the branch trimmed, or undefined', () => {
    assert.equal(agentBranch(conversation(1, { selected_branch: ' feature/x ' })), 'feature/x');
    assert.equal(agentBranch(conversation(1, { selected_branch: '  ' })), undefined);
    assert.equal(agentBranch(conversation(1)), undefined);
  });
});
