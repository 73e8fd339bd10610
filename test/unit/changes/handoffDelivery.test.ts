// A hand-off delivered through the agent-server double over real HTTP, with real git on both sides:
// the parts uploaded, the replay and its check run with sh in the sandbox folder, exactly the handed-over
// files there (the unticked file and the ignored .env not), the scratch folder gone; a failing step is
// named and still leaves nothing behind.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AGENT_SERVER_EXCLUDES,
  AgentServerClient,
  agentEndpointOf,
  OpenHandsClient,
  type RequestLogEntry,
} from '../../../src/api';
import { buildHandoff, type Handoff } from '../../../src/changes/handoffBundle';
import {
  deliverHandoff,
  HandoffDeliveryError,
  type DeliveryStep,
} from '../../../src/changes/handoffDelivery';
import { handoffMessage } from '../../../src/changes/handoffMessage';
import { HANDED_OVER_REF } from '../../../src/changes/handoffReplay';
import type { TestServer } from '../../server';
import { startFastServer } from '../testServer/helpers';
import { CANARY, filesWithModes, makeFixture, TICKED, UNTICKED, type Fixture } from './handoffFixture';
import { commitAll, differingPaths, git, gitWithInput, treeBytes, write } from './scratchRepo';

/** What the sandbox must not hold: the unticked file, the ignored one, the submodule's files. */
const leftBehind = (path: string) => path === UNTICKED || path === '.env' || path.startsWith('lib/');

describe('changes: a hand-off delivered to the agent-server double', function () {
  this.timeout(60_000);
  let server: TestServer;
  let tmp: string;
  let fixture: Fixture;
  let client: AgentServerClient;
  let sandboxDir: string;
  let logs: RequestLogEntry[];
  const built: Handoff[] = [];

  before(async () => {
    server = await startFastServer({ seed: { sandboxes: 2, conversations: 4, seed: 3 } });
    tmp = mkdtempSync(join(tmpdir(), 'openhands-delivery-'));
    fixture = makeFixture(tmp);
  });
  after(async () => {
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  beforeEach(async () => {
    server.reset();
    logs = [];
    const sandbox = server.state.sandboxes.find((candidate) => candidate.status === 'RUNNING');
    const template = server.state.conversations[0];
    assert.ok(sandbox && template);
    const hex = randomUUID().replace(/-/g, '');
    server.state.conversations.push({
      ...template,
      id: hex,
      sandbox_id: sandbox.id,
      execution_status: 'idle',
    });
    const [conversation] = await new OpenHandsClient({
      baseUrl: server.url,
      timeoutMs: 5000,
    }).getConversations([hex]);
    const endpoint = conversation ? agentEndpointOf(conversation) : undefined;
    assert.ok(endpoint);
    client = new AgentServerClient({
      endpoint,
      timeoutMs: 10_000,
      logBodies: true,
      onLog: (entry) => logs.push(entry),
    });
    sandboxDir = server.agent.sandboxDir(sandbox.id);
  });
  afterEach(async () => {
    for (const handoff of built.splice(0)) rmSync(handoff.folder, { recursive: true, force: true });
  });

  /** The double's TMPDIR for commands: where `mktemp -d` made the parts folder. */
  const scratchFolders = () => {
    const folder = join(sandboxDir, '..', '..', 'tmp');
    return existsSync(folder) ? readdirSync(folder) : [];
  };
  const assertHoldsHandedOver = (workingCopy: string) => {
    const expected = filesWithModes(fixture.local, leftBehind);
    const actual = filesWithModes(workingCopy, (path) => path.startsWith('lib/'));
    assert.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), 'the same files');
    for (const [path, content] of expected)
      assert.equal(actual.get(path), content, `${path}: same bytes and mode`);
  };

  it('archive: the tracked files, the edits and the ticked files arrive, and the agent is told what it got', async () => {
    const handoff = await buildHandoff(fixture.local, { kind: 'archive', untracked: TICKED });
    built.push(handoff);
    const steps: DeliveryStep[] = [];
    const delivered = await deliverHandoff(client, handoff, {
      workingCopyName: 'local',
      onStep: (step) => steps.push(step),
    });
    assert.deepEqual(steps, ['reach', 'upload', 'replay', 'verify']);
    assert.equal(delivered.workingCopy, join(sandboxDir, 'local'));
    assertHoldsHandedOver(delivered.workingCopy);
    assert.ok(
      !existsSync(join(delivered.workingCopy, UNTICKED)) && !existsSync(join(delivered.workingCopy, '.env')),
    );
    assert.deepEqual(
      delivered.files
        .map((file) => file.path)
        .filter((path) => TICKED.includes(path))
        .sort(),
      [...TICKED].sort(),
      'the sandbox lists the ticked files',
    );
    assert.deepEqual(scratchFolders(), [], 'the parts folder is gone');
    const uploads = logs.filter((entry) => entry.path.startsWith('/api/file/upload'));
    assert.equal(uploads.length, handoff.manifest.parts.length, 'one upload a part');
    assert.ok(!JSON.stringify(logs).includes(CANARY), 'the .env canary is in no request');
    assert.ok(!JSON.stringify(server.requests).includes(CANARY), 'nor anything the server received');

    const message = handoffMessage(handoff.manifest, delivered.workingCopy);
    assert.match(
      message,
      /^I handed you my repository: the files at main \([0-9a-f]{12}\), \d+ edited files, 3 new files \(/,
    );
    for (const path of TICKED) assert.ok(message.includes(path), `${path} is named`);
    assert.ok(message.endsWith(`It is in your working copy, ${delivered.workingCopy}.`));
  });

  it('archive: with the name and 9 more taken, it stops at reach in words and writes nothing', async () => {
    const handoff = await buildHandoff(fixture.local, { kind: 'archive', untracked: TICKED });
    built.push(handoff);
    mkdirSync(join(sandboxDir, 'taken'), { recursive: true });
    for (let suffix = 2; suffix <= 10; suffix++) mkdirSync(join(sandboxDir, `taken-${suffix}`));
    const uploadsBefore = logs.filter((entry) => entry.path.startsWith('/api/file/upload')).length;
    await assert.rejects(
      () => deliverHandoff(client, handoff, { workingCopyName: 'taken' }),
      (error: unknown) =>
        error instanceof HandoffDeliveryError &&
        error.step === 'reach' &&
        /already has folders named taken up to taken-10/.test(error.message),
    );
    assert.equal(logs.filter((entry) => entry.path.startsWith('/api/file/upload')).length, uploadsBefore);
    assert.deepEqual(scratchFolders(), [], 'the parts folder is gone');
  });

  it('commits: on the clone the server made, the commits ahead and the edits arrive', async () => {
    // What the app server does for a conversation on a repository: a clone in the working folder.
    await client.executeBashCommand('true'); // the double makes the sandbox folder on first use
    git(sandboxDir, ['clone', '-q', '--depth', '1', '--branch', 'main', `file://${fixture.remote}`, 'app']);
    const handoff = await buildHandoff(fixture.local, { kind: 'commits', untracked: TICKED });
    built.push(handoff);
    const delivered = await deliverHandoff(client, handoff, { workingCopyName: 'app' });
    assertHoldsHandedOver(delivered.workingCopy);
    assert.equal(
      git(delivered.workingCopy, ['rev-parse', 'HEAD']).toString(),
      git(fixture.local, ['rev-parse', 'HEAD']).toString(),
      'the very commits',
    );
    assert.match(
      handoffMessage(handoff.manifest, delivered.workingCopy),
      /^I handed you my local state: 2 commits, /,
    );
    assert.deepEqual(scratchFolders(), []);
  });

  it('the way back: the delta against the sandbox’s commit of the handed-over tree holds only the agent’s edit', async () => {
    await client.executeBashCommand('true');
    git(sandboxDir, ['clone', '-q', '--depth', '1', '--branch', 'main', `file://${fixture.remote}`, 'app']);
    const handoff = await buildHandoff(fixture.local, { kind: 'commits', untracked: TICKED });
    built.push(handoff);
    const delivered = await deliverHandoff(client, handoff, { workingCopyName: 'app' });
    const sandbox = (args: string[]) => git(delivered.workingCopy, args).toString('utf8').trim();
    assert.equal(sandbox(['rev-parse', HANDED_OVER_REF]), delivered.baseCommit, 'kept under a ref');
    assert.equal(sandbox(['rev-parse', `${delivered.baseCommit}^{tree}`]), handoff.manifest.handedOver.tree);
    assert.equal(sandbox(['rev-parse', `${delivered.baseCommit}^`]), handoff.manifest.head);
    assert.equal(
      sandbox(['status', '--porcelain=v1', '--untracked-files=no', '--', 'staged.txt']),
      'M  staged.txt',
      'the index untouched',
    );
    // the agent edits one file and adds one, as it would
    const app = readFileSync(join(delivered.workingCopy, 'app.txt'), 'utf8');
    writeFileSync(join(delivered.workingCopy, 'app.txt'), app.replace('line 20\n', 'line 20 (agent)\n'));
    writeFileSync(join(delivered.workingCopy, 'agent.txt'), 'written by the agent\n');

    const delta = await client.workspaceDelta(delivered.workingCopy, {
      baseRef: delivered.baseCommit,
      exclude: AGENT_SERVER_EXCLUDES,
    });
    assert.equal(delta.baseCommit, delivered.baseCommit, 'the server diffed against it');
    const mine = join(tmp, `mine-${randomUUID()}`);
    cpSync(fixture.local, mine, { recursive: true, verbatimSymlinks: true });
    const applied = gitWithInput(mine, ['apply', '-'], delta.patch);
    assert.equal(applied.exitCode, 0, applied.stderr);
    assert.deepEqual(differingPaths(treeBytes(fixture.local), treeBytes(mine)).sort(), [
      'agent.txt',
      'app.txt',
    ]);
    // Without it the server diffs against the upstream: the user's own commits and edits come back too.
    const auto = await client.workspaceDelta(delivered.workingCopy, { exclude: AGENT_SERVER_EXCLUDES });
    assert.ok(auto.patch.includes('staged.txt'), 'the auto base holds the handed edits');
    assert.ok(!delta.patch.includes('staged.txt'), 'the handed-over base does not');
  });

  it('archive: a folder name the sandbox has already (the agent server’s own workspace/) is not joined: name-2', async () => {
    await client.executeBashCommand('true');
    mkdirSync(join(sandboxDir, 'workspace', 'conversations'), { recursive: true });
    writeFileSync(join(sandboxDir, 'workspace', 'conversations', 'meta.json'), '{}\n');
    const handoff = await buildHandoff(fixture.local, { kind: 'archive', untracked: TICKED });
    built.push(handoff);
    const delivered = await deliverHandoff(client, handoff, { workingCopyName: 'workspace' });
    assert.equal(delivered.workingCopy, join(sandboxDir, 'workspace-2'));
    assertHoldsHandedOver(delivered.workingCopy);
    assert.ok(
      existsSync(join(sandboxDir, 'workspace', 'conversations', 'meta.json')),
      'the server’s own folder untouched',
    );
    assert.ok(handoffMessage(handoff.manifest, delivered.workingCopy).endsWith(`${delivered.workingCopy}.`));
    assert.deepEqual(scratchFolders(), []);
  });

  it('a listing past the 1 MiB a command reply carries is still read whole', async () => {
    const big = join(tmp, 'big');
    mkdirSync(big);
    git(big, ['init', '-q', '-b', 'main']);
    // 20,000 files: their listing (mode, hash, path) is about 1.3 MB
    for (let folder = 0; folder < 100; folder++) {
      mkdirSync(join(big, `folder-${folder}`));
      for (let file = 0; file < 200; file++)
        writeFileSync(join(big, `folder-${folder}`, `file-${file}.txt`), `${folder}/${file}\n`);
    }
    commitAll(big, 'many files');
    write(big, 'folder-0/file-0.txt', 'edited\n');
    const handoff = await buildHandoff(big, { kind: 'archive', untracked: [] });
    built.push(handoff);
    const delivered = await deliverHandoff(client, handoff, { workingCopyName: 'big' });
    assert.equal(delivered.files.length, 20_000);
    assert.deepEqual(scratchFolders(), []);
  });

  it('a replay that fails is named with the sandbox’s words, and the parts folder still goes', async () => {
    // commits, but no clone where the replay expects one
    const handoff = await buildHandoff(fixture.local, { kind: 'commits', untracked: [] });
    built.push(handoff);
    await assert.rejects(
      () => deliverHandoff(client, handoff, { workingCopyName: 'nowhere' }),
      (error) =>
        error instanceof HandoffDeliveryError &&
        error.step === 'replay' &&
        /^The sandbox could not rebuild your work: .*nowhere/s.test(error.message),
    );
    assert.deepEqual(scratchFolders(), []);
  });

  it('refuses a working copy name that is not one folder, before any request', async () => {
    const handoff = await buildHandoff(fixture.local, { kind: 'archive', untracked: [] });
    built.push(handoff);
    for (const name of ['', '..', 'a/b', 'two\nlines']) {
      await assert.rejects(
        () => deliverHandoff(client, handoff, { workingCopyName: name }),
        (error) => error instanceof HandoffDeliveryError && error.step === 'reach',
      );
    }
    assert.equal(logs.length, 0);
    assert.ok(readFileSync(join(handoff.folder, 'head.tar')).length > 0);
  });
});
