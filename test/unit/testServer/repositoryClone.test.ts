// A start on a provider's repository, as 1.11 runs it in a process sandbox: the double clones the
// repository the control API maps to a local bare one, shallow, at the branch asked for, into the
// sandbox's folder under the repository's name, with `origin` the URL the real server builds; a
// repository no provider holds, a rejected token or an invalid branch end the start in ERROR with the
// real words, and a branch the repository lacks starts the conversation without a clone.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppConversationStartTask, TestServer } from '../../server';
import { eventuallyDefined } from '../../shared/eventually';
import { git } from '../../shared/sandboxWorkspace';
import { getJson, postJson, startFastServer } from './helpers';

const TOKEN = 'ghp_repositoryCloneTest';

describe('test server: the clone of a start on a provider repository', function () {
  this.timeout(30_000);
  let server: TestServer;
  let scratch: string;
  let bare: string;
  let mainHead: string;
  let releaseHead: string;

  before(async () => {
    server = await startFastServer();
    scratch = mkdtempSync(path.join(tmpdir(), 'openhands-provider-'));
    bare = path.join(scratch, 'webapp.git');
    const work = path.join(scratch, 'work');
    git(scratch, 'init', '-q', '--bare', '-b', 'main', bare);
    git(scratch, 'init', '-q', '-b', 'main', work);
    for (const text of ['one\n', 'two\n']) {
      writeFileSync(path.join(work, 'README.md'), text);
      git(work, 'add', '--all');
      git(work, 'commit', '-q', '-m', text.trim());
    }
    mainHead = git(work, 'rev-parse', 'HEAD').trim();
    git(work, 'checkout', '-q', '-b', 'release/1.2');
    writeFileSync(path.join(work, 'RELEASE.md'), 'notes\n');
    git(work, 'add', '--all');
    git(work, 'commit', '-q', '-m', 'release');
    releaseHead = git(work, 'rev-parse', 'HEAD').trim();
    git(work, 'push', '-q', bare, 'main', 'release/1.2');
  });
  after(async () => {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  });
  beforeEach(() => server.reset());

  async function control(pathName: string, body: unknown): Promise<number> {
    return (await postJson(`${server.url}/__control/${pathName}`, body)).status;
  }

  async function holdRepository(provider = 'github', repository = 'Acme/WebApp'): Promise<void> {
    assert.equal(await control('git-provider/repositories', { provider, repository, path: bare }), 200);
  }

  async function holdToken(provider: string, token: string, host: string | null = null): Promise<void> {
    const reply = await postJson(`${server.url}/api/v1/secrets/git-providers`, {
      provider_tokens: { [provider]: { token, host } },
    });
    assert.equal(reply.status, 200);
  }

  /** Starts, and returns the task once it is READY or ERROR. */
  async function start(
    request: Record<string, unknown>,
  ): Promise<{ task: AppConversationStartTask; sandboxDir: string }> {
    const started = await postJson<AppConversationStartTask>(
      `${server.url}/api/v1/app-conversations`,
      request,
    );
    assert.equal(started.status, 200);
    const task = await eventuallyDefined(async () => {
      const reply = await getJson<(AppConversationStartTask | null)[]>(
        `${server.url}/api/v1/app-conversations/start-tasks?ids=${started.body.id}`,
      );
      const current = reply.body[0];
      return current?.status === 'READY' || current?.status === 'ERROR' ? current : undefined;
    });
    return { task, sandboxDir: server.agent.sandboxDir(task.sandbox_id ?? '') };
  }

  it('clones the repository shallow at the branch asked for, its origin the URL 1.11 builds', async () => {
    await holdRepository();
    await holdToken('github', TOKEN);
    const { task, sandboxDir } = await start({
      selected_repository: 'acme/webapp',
      selected_branch: 'release/1.2',
      git_provider: 'github',
    });
    assert.equal(task.status, 'READY', task.detail ?? '');
    // the folder is the request's last segment; the URL the provider's spelling of the name
    const clone = path.join(sandboxDir, 'webapp');
    assert.equal(git(clone, 'rev-parse', 'HEAD').trim(), releaseHead);
    assert.equal(git(clone, 'symbolic-ref', '--short', 'HEAD').trim(), 'release/1.2');
    assert.equal(git(clone, 'rev-parse', '--is-shallow-repository').trim(), 'true');
    assert.equal(git(clone, 'rev-list', '--count', 'HEAD').trim(), '1');
    assert.equal(
      git(clone, 'config', '--get', 'remote.origin.url').trim(),
      `https://${TOKEN}@github.com/Acme/WebApp.git`,
    );
    // the sandbox may fetch from origin later (a base the shallow clone lacks)
    git(clone, 'fetch', '-q', '--depth=1', 'origin', mainHead);
    assert.equal(git(clone, 'cat-file', '-t', mainHead).trim(), 'commit');
  });

  it('without a branch: the default branch, checked out on a branch of its own', async () => {
    await holdRepository('gitlab', 'acme/platform/webapp');
    await holdToken('gitlab', 'glpat-clone', 'https://git.acme.dev/api/v4/');
    const { task, sandboxDir } = await start({ selected_repository: 'acme/platform/webapp' });
    assert.equal(task.status, 'READY', task.detail ?? '');
    const clone = path.join(sandboxDir, 'webapp');
    assert.equal(git(clone, 'rev-parse', 'HEAD').trim(), mainHead);
    assert.match(git(clone, 'symbolic-ref', '--short', 'HEAD').trim(), /^openhands-workspace-[0-9A-Za-z]+$/);
    assert.equal(
      git(clone, 'config', '--get', 'remote.origin.url').trim(),
      'https://oauth2:glpat-clone@git.acme.dev/acme/platform/webapp.git',
    );
  });

  it('a repository no provider holds, or none with a token the provider takes: ERROR, as 1.11 words it', async () => {
    await holdRepository();
    const noToken = await start({ selected_repository: 'acme/webapp' });
    assert.equal(noToken.task.status, 'ERROR');
    assert.equal(noToken.task.detail, 'Git provider authentication issue when getting remote URL');
    // after the sandbox came up (PREPARING_REPOSITORY), not before
    assert.ok(noToken.task.sandbox_id);
    assert.equal(noToken.task.app_conversation_id, null);

    await holdToken('github', TOKEN);
    const unknown = await start({ selected_repository: 'acme/other', selected_branch: 'main' });
    assert.equal(unknown.task.status, 'ERROR');
    assert.equal(unknown.task.detail, 'Git provider authentication issue when getting remote URL');
    assert.equal(existsSync(path.join(unknown.sandboxDir, 'other')), false);

    // a token of another provider does not reach a GitHub repository
    server.state.providerTokens = { gitlab: { token: 'glpat-x', host: null, user_id: null } };
    const otherProvider = await start({ selected_repository: 'acme/webapp', git_provider: 'github' });
    assert.equal(otherProvider.task.status, 'ERROR');
    // nor does a token GitHub rejects
    server.state.providerTokens = { github: { token: 'bad-token', host: null, user_id: null } };
    const rejected = await start({ selected_repository: 'acme/webapp' });
    assert.equal(rejected.task.status, 'ERROR');
  });

  it('an invalid branch name is refused; a branch the repository lacks starts without a clone', async () => {
    await holdRepository();
    await holdToken('github', TOKEN);
    const invalid = await start({ selected_repository: 'acme/webapp', selected_branch: 'a..b' });
    assert.equal(invalid.task.status, 'ERROR');
    assert.match(invalid.task.detail ?? '', /^Invalid git branch name\. /);

    const missing = await start({ selected_repository: 'acme/webapp', selected_branch: 'gone' });
    assert.equal(missing.task.status, 'READY', missing.task.detail ?? '');
    assert.equal(existsSync(path.join(missing.sandboxDir, 'webapp')), false);
  });

  it('the control route refuses a repository that is not owner/name or a path that is not absolute', async () => {
    assert.equal(
      await control('git-provider/repositories', { provider: 'github', repository: 'webapp', path: bare }),
      400,
    );
    assert.equal(
      await control('git-provider/repositories', {
        provider: 'github',
        repository: 'acme/webapp',
        path: 'webapp.git',
      }),
      400,
    );
    assert.deepEqual(server.state.providerRepositories, []);
  });

  it('forgetting the repositories: a start on one goes on without a clone, as before any was known', async () => {
    await holdRepository();
    const cleared = await fetch(`${server.url}/__control/git-provider/repositories`, { method: 'DELETE' });
    assert.equal(cleared.status, 200);
    const { task, sandboxDir } = await start({ selected_repository: 'acme/webapp' });
    assert.equal(task.status, 'READY', task.detail ?? '');
    assert.equal(existsSync(path.join(sandboxDir, 'webapp')), false);
  });
});
