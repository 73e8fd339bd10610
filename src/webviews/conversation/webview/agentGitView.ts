/**
 * The agent's branch and its pull requests in the header: the branch's name, each PR as `#12` (a link
 * when the host made one: the page's link path takes it to the host, which opens http(s) only), and
 * the buttons Check Out Branch and Open Pull Request, run by the host. Every name is the server's:
 * drawn through text bindings.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { AgentGit } from '../shared/protocol';
import { safeLinkUrl } from './linkPolicy';
import { oneLine } from './text';

export interface AgentGitActions {
  checkOutBranch(): void;
  openPullRequest(): void;
}

export function agentGitView(
  git: AgentGit | null | undefined,
  actions: AgentGitActions,
): TemplateResult | typeof nothing {
  if (!git) return nothing;
  const branch = git.branch ? oneLine(git.branch, 120) : null;
  const canCheckOut = Boolean(git.branch && git.repository);
  return html`<div class="agent-git" aria-label="The agent’s branch and pull requests">
    ${
      branch
        ? html`<span class="meta-item agent-branch" title=${`The agent’s branch: ${branch}`}
            ><span class="codicon codicon-git-branch" aria-hidden="true"></span
            ><span class="branch-name">${branch}</span></span
          >`
        : nothing
    }
    ${
      git.pullRequests.length
        ? html`<span class="meta-item pull-requests"
            ><span class="codicon codicon-git-pull-request" aria-hidden="true"></span>${git.pullRequests.map(
              (pullRequest, index) => {
                const url = pullRequest.url ? safeLinkUrl(pullRequest.url) : undefined;
                const label = `#${pullRequest.number}`;
                return html`${index > 0 ? ', ' : nothing}${
                  url
                    ? html`<a class="pr-link" href=${url} title=${url}>${label}</a>`
                    : html`<span class="pr-number" title="No link on this provider">${label}</span>`
                }`;
              },
            )}</span
          >`
        : nothing
    }
    ${
      canCheckOut
        ? html`<button
            type="button"
            class="link-button"
            id="check-out-branch"
            @click=${actions.checkOutBranch}
          >
            Check Out Branch
          </button>`
        : nothing
    }
    ${
      git.pullRequests.length
        ? html`<button
            type="button"
            class="link-button"
            id="open-pull-request"
            @click=${actions.openPullRequest}
          >
            Open Pull Request
          </button>`
        : nothing
    }
  </div>`;
}
