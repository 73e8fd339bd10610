// The header's branch and pull requests, from the app server's conversation: what the user reads
// (the branch, `#12`), which PRs are links (only once the providers' hosts are known, only http(s)),
// and that the header a page receives passes the protocol's check.
import assert from 'node:assert/strict';
import { AppConversationSchema, type AppConversation } from '../../../../../src/api';
import { agentGitOf, panelHeader } from '../../../../../src/webviews/conversation/host/headerModel';
import { Transcript } from '../../../../../src/webviews/conversation/host/rows/transcript';
import { HeaderSchema } from '../../../../../src/webviews/conversation/shared/protocol';
import { feedState } from './feedFixture';

const CONVERSATION_ID = 'abcdef0123456789abcdef0123456789';

function conversation(fields: Record<string, unknown>): AppConversation {
  return AppConversationSchema.parse({ id: CONVERSATION_ID, sandbox_id: 'sandbox-1', ...fields });
}

describe('conversation panel header: the agent’s branch and pull requests', () => {
  const github = conversation({
    selected_repository: 'acme/app',
    selected_branch: 'openhands/fix-login',
    git_provider: 'github',
    pr_number: [12],
  });

  it('says the branch and #12, linked to the PR’s page once the hosts are known', () => {
    assert.deepEqual(agentGitOf(github, {}), {
      repository: 'acme/app',
      branch: 'openhands/fix-login',
      pullRequests: [{ number: 12, url: 'https://github.com/acme/app/pull/12' }],
    });
    // before the server said its hosts, no link that might point at the wrong host
    assert.deepEqual(agentGitOf(github, undefined)?.pullRequests, [{ number: 12, url: null }]);
    // a self-hosted GitLab the server names
    const gitlab = conversation({ selected_repository: 'g/sub/app', git_provider: 'gitlab', pr_number: [4] });
    assert.equal(
      agentGitOf(gitlab, { gitlab: 'gitlab.acme.dev' })?.pullRequests[0]?.url,
      'https://gitlab.acme.dev/g/sub/app/-/merge_requests/4',
    );
  });

  it('names a PR without a link where none can be made, and nothing when there is neither branch nor PR', () => {
    const azure = conversation({
      selected_repository: 'org/proj',
      git_provider: 'azure_devops',
      pr_number: [9],
    });
    assert.deepEqual(agentGitOf(azure, {})?.pullRequests, [{ number: 9, url: null }]);
    const hostile = conversation({
      selected_repository: '../evil',
      git_provider: 'github',
      pr_number: [3],
    });
    assert.deepEqual(agentGitOf(hostile, { github: 'javascript:alert(1)' })?.pullRequests, [
      { number: 3, url: null },
    ]);
    assert.equal(agentGitOf(conversation({ selected_repository: 'acme/app' }), {}), null);
  });

  it('is in the header the page receives, which passes the protocol’s check', () => {
    const header = panelHeader({
      conversationId: CONVERSATION_ID,
      feed: feedState(),
      conversation: conversation({ ...github, selected_branch: 'b'.repeat(1000) }),
      eventCount: 0,
      rows: new Transcript(),
      outbox: [],
      busy: null,
      rejected: false,
      now: 0,
      providerHosts: {},
    });
    assert.equal(header.git?.pullRequests[0]?.url, 'https://github.com/acme/app/pull/12');
    assert.ok((header.git?.branch?.length ?? 0) <= 300, 'a long branch name is clipped');
    assert.ok(HeaderSchema.safeParse(header).success);
  });
});
