/**
 * Open Pull Request: the PR the agent opened (asked which when it opened several), in the GitHub Pull
 * Requests extension when it is installed and this workspace is a clone of the PR's repository (its
 * documented link, `open-pull-request-webview`: the extension contributes no command that takes a PR
 * by number), else on the provider's web page.
 */
import * as vscode from 'vscode';
import type { AppConversation } from '../../api';
import { workspaceRepository } from '../../conversations/workspaceGit';
import { conversationTitle } from '../../state/names';
import { pullRequestsOf, type ProviderHosts, type PullRequestLink } from '../../state/pullRequestLinks';
import type { ExternalOpener } from '../externalOpener';

export const GITHUB_PULL_REQUESTS_EXTENSION = 'GitHub.vscode-pull-request-github';

export interface OpenPullRequestDeps {
  hosts(): Promise<ProviderHosts>;
  opener: ExternalOpener;
  /** Whether this workspace is a clone of `repository` (`owner/name`); the built-in git extension says. */
  workspaceHolds?(repository: string): Promise<boolean>;
}

/** Where the PR went: its number and the address opened; undefined when nothing was opened. */
export interface OpenedPullRequest {
  number: number;
  opened: string;
  in: 'browser' | 'github-pull-requests';
}

export async function openPullRequest(
  deps: OpenPullRequestDeps,
  conversation: AppConversation,
): Promise<OpenedPullRequest | undefined> {
  const title = conversationTitle(conversation);
  const pullRequests = pullRequestsOf(conversation, await deps.hosts());
  if (pullRequests.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('The agent has not opened a pull request in “{0}”.', title),
    );
    return undefined;
  }
  const chosen = pullRequests.length === 1 ? pullRequests[0] : await pickPullRequest(pullRequests, title);
  if (!chosen) return undefined;
  if (!chosen.url) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t(
        'The agent opened pull request #{0} of {1} on {2}, which OpenHands cannot link to: open it on the provider’s site.',
        chosen.number,
        conversation.selected_repository ?? vscode.l10n.t('an unnamed repository'),
        conversation.git_provider ?? vscode.l10n.t('an unnamed provider'),
      ),
    );
    return undefined;
  }
  const inExtension = await githubPullRequestsLink(deps, conversation, chosen);
  const target = inExtension ?? vscode.Uri.parse(chosen.url, true);
  await deps.opener.open(target);
  return {
    number: chosen.number,
    opened: target.toString(true),
    in: inExtension ? 'github-pull-requests' : 'browser',
  };
}

async function pickPullRequest(
  pullRequests: readonly PullRequestLink[],
  title: string,
): Promise<PullRequestLink | undefined> {
  const picked = await vscode.window.showQuickPick(
    pullRequests.map((pullRequest) => ({
      label: `#${pullRequest.number}`,
      description: pullRequest.url ?? vscode.l10n.t('no link on this provider'),
      pullRequest,
    })),
    {
      title: vscode.l10n.t('Open Pull Request'),
      placeHolder: vscode.l10n.t('The agent opened {0} pull requests in “{1}”', pullRequests.length, title),
      ignoreFocusOut: true,
    },
  );
  return picked?.pullRequest;
}

/** The extension's own link to its PR view, when it can show this PR; undefined for the browser. */
async function githubPullRequestsLink(
  deps: OpenPullRequestDeps,
  conversation: AppConversation,
  pullRequest: PullRequestLink,
): Promise<vscode.Uri | undefined> {
  const repository = conversation.selected_repository;
  if (conversation.git_provider !== 'github' || !repository || !pullRequest.url) return undefined;
  if (!vscode.extensions.getExtension(GITHUB_PULL_REQUESTS_EXTENSION)) return undefined;
  // it finds the PR among the workspace's repositories: elsewhere it would open nothing
  if (!(await (deps.workspaceHolds ?? workspaceHoldsRepository)(repository))) return undefined;
  const [owner, repo] = repository.split('/');
  return vscode.Uri.from({
    scheme: vscode.env.uriScheme,
    authority: GITHUB_PULL_REQUESTS_EXTENSION,
    path: '/open-pull-request-webview',
    query: JSON.stringify({ owner, repo, pullRequestNumber: pullRequest.number }),
  });
}

async function workspaceHoldsRepository(repository: string): Promise<boolean> {
  const local = await workspaceRepository();
  return local?.repository.toLowerCase() === repository.toLowerCase();
}
