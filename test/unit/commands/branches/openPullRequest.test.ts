// Open Pull Request against the vscode stand-in: one PR opens at once, several are asked, one without
// a link is said in words; with the GitHub Pull Requests extension installed and the workspace a clone
// of the repository, its own documented link opens the PR in it. The opener records, nothing opens.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ExternalOpener } from '../../../../src/commands/externalOpener';
import {
  GITHUB_PULL_REQUESTS_EXTENSION,
  openPullRequest,
} from '../../../../src/commands/branches/openPullRequest';
import type { ProviderHosts } from '../../../../src/state/pullRequestLinks';
import { prompts } from '../../../shared/vscodeStandIn/standIn';
import { conversation } from '../../state/appRecords';

describe('Open Pull Request', () => {
  const github = conversation(1, {
    title: 'Fix the login',
    selected_repository: 'acme/app',
    selected_branch: 'openhands/fix-login',
    git_provider: 'github',
    pr_number: [12],
  });
  const deps = (opener: ExternalOpener, hosts: ProviderHosts = {}, holds = false) => ({
    hosts: () => Promise.resolve(hosts),
    opener,
    workspaceHolds: () => Promise.resolve(holds),
  });

  it('opens the one PR’s page in the browser', async () => {
    const opener = new ExternalOpener(true);
    const opened = await openPullRequest(deps(opener), github);
    assert.deepEqual(opener.opened, ['https://github.com/acme/app/pull/12']);
    assert.deepEqual(opened, { number: 12, opened: 'https://github.com/acme/app/pull/12', in: 'browser' });
  });

  it('asks which of several, on the self-hosted host the server names', async () => {
    const opener = new ExternalOpener(true);
    const gitlab = conversation(2, {
      selected_repository: 'g/sub/app',
      git_provider: 'gitlab',
      pr_number: [4, 9],
    });
    prompts.answer('quickPick', '#9');
    await openPullRequest(deps(opener, { gitlab: 'gitlab.acme.dev' }), gitlab);
    assert.deepEqual(prompts.of('quickPick')[0]?.choices, ['#4', '#9']);
    assert.deepEqual(opener.opened, ['https://gitlab.acme.dev/g/sub/app/-/merge_requests/9']);
  });

  it('opens nothing when the pick is dismissed, or when there is no PR, and says so', async () => {
    const opener = new ExternalOpener(true);
    await openPullRequest(deps(opener), { ...github, pr_number: [12, 13] });
    await openPullRequest(deps(opener), { ...github, pr_number: [] });
    assert.deepEqual(opener.opened, []);
    assert.match(
      prompts.of('information')[0]?.message ?? '',
      /has not opened a pull request in “Fix the login”/,
    );
  });

  it('names a PR it cannot link, and opens nothing', async () => {
    const opener = new ExternalOpener(true);
    await openPullRequest(deps(opener), { ...github, git_provider: 'azure_devops' });
    assert.deepEqual(opener.opened, []);
    assert.match(prompts.of('information')[0]?.message ?? '', /#12 of acme\/app on azure_devops/);
  });

  describe('with the GitHub Pull Requests extension installed', () => {
    const extensions = vscode.extensions as { getExtension: (id: string) => unknown };
    const original = extensions.getExtension;
    beforeEach(() => {
      extensions.getExtension = (id: string) => (id === GITHUB_PULL_REQUESTS_EXTENSION ? {} : undefined);
    });
    afterEach(() => {
      extensions.getExtension = original;
    });

    it('opens the PR in it when the workspace is a clone of the repository', async () => {
      const opener = new ExternalOpener(true);
      const opened = await openPullRequest(deps(opener, {}, true), github);
      assert.equal(opened?.in, 'github-pull-requests');
      const uri = vscode.Uri.parse(opener.opened?.[0] ?? '');
      assert.equal(uri.scheme, 'vscode');
      assert.equal(uri.authority.toLowerCase(), GITHUB_PULL_REQUESTS_EXTENSION.toLowerCase());
      assert.equal(uri.path, '/open-pull-request-webview');
      assert.deepEqual(JSON.parse(uri.query), { owner: 'acme', repo: 'app', pullRequestNumber: 12 });
    });

    it('opens the browser when the workspace holds another repository, or the PR is not GitHub’s', async () => {
      const opener = new ExternalOpener(true);
      await openPullRequest(deps(opener, {}, false), github);
      await openPullRequest(deps(opener, {}, true), { ...github, git_provider: 'bitbucket' });
      assert.deepEqual(opener.opened, [
        'https://github.com/acme/app/pull/12',
        'https://bitbucket.org/acme/app/pull-requests/12',
      ]);
    });
  });
});
