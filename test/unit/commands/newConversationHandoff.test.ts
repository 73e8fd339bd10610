// New Conversation from a workspace whose repository holds work no remote has, through the scripted
// user, against the test server and its agent-server double, with real git: the one question, the
// untracked files to tick, what the sandbox received, the first message's words, a refusal starting
// nothing and keeping the task, and no parts folder left behind.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { commands, prompts } from '../../shared/vscodeStandIn/standIn';
import { extensions, Uri, workspace } from '../../shared/vscodeStandIn/index';
import { useExtensionState } from '../state/extensionState';
import { commitAll, git, write } from '../changes/scratchRepo';
import { useConversationCommands } from './conversationCommandsHarness';

const CANARY = 'HANDOFF_FLOW_CANARY_91c2';
const TASK = 'Finish the feature';

describe('New Conversation hands over local work', function () {
  this.timeout(60_000);
  const t = useExtensionState({ seed: { sandboxes: 2, conversations: 2, seed: 9 } });
  const harness = useConversationCommands(t);
  let tmp: string;
  let repo: string;
  let savedTmpdir: string | undefined;
  const folders = workspace as { workspaceFolders: unknown };

  beforeEach(() => {
    tmp = mkdtempSync(join(process.env['TMPDIR'] ?? '/tmp', 'openhands-flow-'));
    // the hand-off's parts folder is made in the system temp folder: this test's own, to see it go
    savedTmpdir = process.env['TMPDIR'];
    mkdirSync(join(tmp, 'system-tmp'));
    process.env['TMPDIR'] = join(tmp, 'system-tmp');
    repo = join(tmp, 'my app');
    mkdirSync(repo);
    git(repo, ['init', '-q', '-b', 'main']);
    write(repo, '.gitignore', '.env\n');
    write(repo, 'app.txt', 'one\ntwo\n');
    commitAll(repo, 'base');
    write(repo, 'app.txt', 'one\ntwo, edited\n');
    write(repo, 'new.txt', 'new file\n');
    write(repo, 'unticked.txt', 'stays\n');
    write(repo, '.env', `SECRET=${CANARY}\n`);
    folders.workspaceFolders = [{ uri: Uri.file(repo), name: 'my app', index: 0 }];
  });
  afterEach(() => {
    extensions.installed.delete('vscode.git');
    folders.workspaceFolders = undefined;
    if (savedTmpdir === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmpdir;
    rmSync(tmp, { recursive: true, force: true });
  });

  /** The hand-off parts folders in the system temp folder (git's shared empty hooks folder aside). */
  const partsFolders = () =>
    readdirSync(join(tmp, 'system-tmp')).filter((name) => name.startsWith('openhands-handoff-'));
  const starts = () =>
    t.server.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/app-conversations');

  it('no remote: "Bring my repository", one file ticked; the sandbox holds them, then the task goes with what was given', async () => {
    prompts.answer('inputBox', TASK);
    prompts.answer('inputBox', ''); // no repository to clone
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('quickPick', 'Bring my repository');
    prompts.answer('quickPick', 'new.txt');
    prompts.answer('information', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.ok(id, 'a conversation started');
    assert.deepEqual(prompts.unused(), []);
    const [choice, ticks] = prompts.of('quickPick').slice(1);
    assert.deepEqual(
      choice?.choices,
      ['Bring my repository', 'Start without my local work'],
      'no provider: the one way to hand it over, or none',
    );
    assert.match(
      choice?.detail ?? '',
      /^The server has no git token to clone [^.]+\. What should the agent start from\?$/,
      'the question says why the repository must be brought',
    );
    assert.deepEqual(
      ticks?.choices,
      ['new.txt', 'unticked.txt'],
      'the untracked files; never the ignored .env',
    );
    assert.equal(starts().length, 1);
    assert.equal(
      (starts()[0]?.body as { initial_message?: unknown }).initial_message,
      undefined,
      'held back',
    );

    const hex = id.replace(/-/g, '');
    const record = t.server.state.conversations.find((c) => c.id === hex);
    assert.ok(record);
    const workingCopy = join(t.server.agent.sandboxDir(record.sandbox_id), 'my app');
    assert.equal(readFileSync(join(workingCopy, 'app.txt'), 'utf8'), 'one\ntwo, edited\n');
    assert.equal(readFileSync(join(workingCopy, 'new.txt'), 'utf8'), 'new file\n');
    assert.ok(!existsSync(join(workingCopy, 'unticked.txt')) && !existsSync(join(workingCopy, '.env')));

    const events = t.server.state.agentConversations.get(hex)?.events ?? [];
    const said = JSON.stringify(events);
    assert.ok(
      said.includes(
        `I handed you my repository: the files at main (${git(repo, ['rev-parse', 'HEAD']).toString().slice(0, 12)}), 1 edited file, 1 new file (app.txt, new.txt). It is in your working copy, ${workingCopy}.\\n\\n${TASK}`,
      ),
      'the first message says what the agent was given, then the task',
    );
    assert.ok(
      !said.includes(CANARY) && !JSON.stringify(t.server.requests).includes(CANARY),
      'the .env never left',
    );
    assert.deepEqual(partsFolders(), [], 'the parts folder is gone');

    const kept = harness.handoffRecords.get(id);
    assert.equal(kept?.kind, 'archive');
    assert.equal(kept?.workingCopy, workingCopy);
    assert.equal(kept?.head, git(repo, ['rev-parse', 'HEAD']).toString().trim());
    assert.deepEqual([kept?.editedFiles, kept?.untrackedFiles], [['app.txt'], ['new.txt']]);
    assert.equal(
      git(workingCopy, ['rev-parse', `${kept?.sandboxBase}^{tree}`])
        .toString()
        .trim(),
      kept?.handedOver.tree,
      'the sandbox’s commit holds the tree handed over',
    );
    assert.ok(!harness.workspaceState.dump().includes(CANARY), 'nothing of the .env kept');
  });

  it('no remote: "Start without my local work" starts as before, the task in the start request, nothing uploaded', async () => {
    prompts.answer('inputBox', TASK);
    prompts.answer('inputBox', ''); // no repository to clone
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('quickPick', 'Start without my local work');
    prompts.answer('information', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.ok(id, 'a conversation started');
    assert.deepEqual(prompts.unused(), []);
    assert.equal(prompts.of('quickPick').length, 2, 'no untracked files asked about');
    assert.equal(starts().length, 1);
    assert.match(
      JSON.stringify(starts()[0]?.body),
      new RegExp(TASK),
      'the task goes with the start, as before',
    );
    assert.ok(
      !t.server.requests.some(
        (r) => r.path.startsWith('/api/file/upload') || r.path.includes('execute_bash'),
      ),
      'nothing handed over',
    );
    assert.deepEqual(partsFolders(), [], 'no parts folder');
  });

  it('a GitHub repository and no token on the server: "Start without my local work" names no repository (1.11 would fail the start)', async () => {
    git(repo, ['remote', 'add', 'origin', 'https://github.com/acme/app.git']);
    // the built-in git extension, as VS Code's answers for this folder
    const gitApi = {
      repositories: [
        {
          rootUri: Uri.file(repo),
          state: {
            remotes: [{ name: 'origin', fetchUrl: 'https://github.com/acme/app.git' }],
            HEAD: { name: 'main' },
          },
        },
      ],
    };
    const exports = { getAPI: () => gitApi };
    extensions.installed.set('vscode.git', {
      isActive: true,
      exports,
      activate: () => Promise.resolve(exports),
    });

    prompts.answer('inputBox', TASK);
    prompts.answer('inputBox', 'acme/app'); // as prefilled from the remote
    prompts.answer('inputBox', 'main');
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('quickPick', 'Start without my local work');
    prompts.answer('information', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.ok(id, 'a conversation started');
    assert.deepEqual(prompts.unused(), []);
    assert.equal(prompts.of('inputBox')[1]?.choices[0], 'acme/app', 'the remote prefilled the repository');
    const body = starts()[0]?.body as Record<string, unknown> | undefined;
    assert.ok(body);
    assert.equal(
      body['selected_repository'] ?? null,
      null,
      'no repository for a server that cannot clone it',
    );
    assert.equal(body['selected_branch'] ?? null, null);
    assert.match(JSON.stringify(body), new RegExp(TASK), 'the task goes with the start');
  });

  it('asks nothing for a folder the repository ignores, nor when the caller named the repository', async () => {
    write(repo, '.gitignore', '.env\nbuild/\n');
    mkdirSync(join(repo, 'build'));
    folders.workspaceFolders = [{ uri: Uri.file(join(repo, 'build')), name: 'build', index: 0 }];
    prompts.answer('inputBox', TASK);
    prompts.answer('inputBox', '');
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('information', undefined);
    const first = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.ok(first, JSON.stringify(prompts.asked));
    assert.equal(prompts.of('quickPick').length, 1, 'only the sandbox was asked');

    prompts.reset();
    folders.workspaceFolders = [{ uri: Uri.file(repo), name: 'my app', index: 0 }];
    prompts.answer('information', undefined);
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation', {
      message: TASK,
      repository: null,
      sandboxId: null,
    });
    assert.ok(id);
    assert.equal(prompts.of('quickPick').length, 0, 'no question at all');
    const events = JSON.stringify(t.server.state.agentConversations.get(id.replace(/-/g, ''))?.events ?? []);
    assert.ok(events.includes(TASK) && !events.includes('I handed you'), 'the task as it was');
  });

  it('a refusal (a merge conflict) says the file, starts nothing and keeps the task', async () => {
    git(repo, ['stash', '-q', '--include-untracked']);
    git(repo, ['checkout', '-q', '-b', 'other']);
    write(repo, 'app.txt', 'one\nother\n');
    commitAll(repo, 'other');
    git(repo, ['checkout', '-q', 'main']);
    write(repo, 'app.txt', 'one\nmain\n');
    commitAll(repo, 'main');
    assert.throws(() => git(repo, ['merge', '-q', 'other']), 'the merge stops in a conflict');

    prompts.answer('inputBox', TASK);
    prompts.answer('inputBox', '');
    prompts.answer('quickPick', '$(add) New sandbox');
    prompts.answer('quickPick', 'Bring my repository');
    const id = await commands.executeCommand<string | undefined>('openhands.newConversation');
    assert.equal(id, undefined);
    assert.equal(starts().length, 0, 'nothing started');
    const error = prompts.of('error')[0]?.message ?? '';
    assert.match(
      error,
      /^Your local work was not handed over, so nothing started: Finish the merge first: app\.txt is in conflict\./,
    );
    assert.deepEqual(partsFolders(), [], 'no parts folder left');
    // the task is offered again
    prompts.answer('inputBox', undefined);
    await commands.executeCommand('openhands.newConversation');
    assert.deepEqual(prompts.of('inputBox').at(-1)?.choices, [TASK]);
  });
});
