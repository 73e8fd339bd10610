import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutionStatus, SandboxRecord, TestServer } from '../../server';
import type { AgentEvent } from '../../server/agentServer/events';
import {
  SAMPLE_APP_AFTER,
  SAMPLE_APP_BEFORE,
  SAMPLE_LOGO_AFTER,
  SAMPLE_MOVED,
  SAMPLE_NOTES,
  sampleBigText,
} from '../../server/agentServer/sampleWorkspace';
import { getJson, postJson, startFastServer } from './helpers';
import { eventuallyDefined } from '../../shared/eventually';

interface Change {
  status: string;
  path: string;
}

interface Sample {
  dir: string;
  head: string | null;
  changes: Change[];
}

interface Target {
  hex: string;
  sandbox: SandboxRecord;
  /** `<sandbox>/agent-server/api`. */
  api: string;
  control: string;
  headers: Record<string, string>;
}

/** What the real agent server lists for the sample, besides its own files. */
const SAMPLE_CHANGES: Change[] = [
  { status: 'ADDED', path: 'big.txt' },
  { status: 'UPDATED', path: 'logo.png' },
  { status: 'DELETED', path: 'moved-from.txt' },
  { status: 'ADDED', path: 'moved-to.txt' },
  { status: 'ADDED', path: 'notes/new.md' },
  { status: 'DELETED', path: 'old.txt' },
  { status: 'UPDATED', path: 'src/app.ts' },
];

const isAgentServerFile = (change: Change): boolean =>
  change.path === '.openhands-agent-server.log' || change.path.startsWith('workspace/');

/** Git for the test's own checks, cut off from the developer's config and any GIT_* of a hook. */
function git(args: string[], cwd: string): string {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('GIT_')));
  return execFileSync('git', args, {
    cwd,
    env: { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull },
    encoding: 'utf8',
    stdio: 'pipe',
  });
}

describe('test server: agent-server double, git and file routes', () => {
  let server: TestServer;

  before(async () => {
    server = await startFastServer({
      seed: { sandboxes: 3, conversations: 6, seed: 5 },
      timings: { agentStepMs: 0 },
    });
  });
  after(() => server.close());
  beforeEach(() => server.reset());

  /** A new conversation in a running sandbox (its sandbox directory is shared with the seeded ones). */
  function freshConversation(status: ExecutionStatus = 'idle'): Target {
    const sandbox = server.state.sandboxes.find((candidate) => candidate.status === 'RUNNING');
    const template = server.state.conversations[0];
    assert.ok(sandbox && template, 'the seed has a running sandbox and a conversation');
    const hex = randomUUID().replace(/-/g, '');
    server.state.conversations.push({
      ...template,
      id: hex,
      sandbox_id: sandbox.id,
      execution_status: status,
    });
    return {
      hex,
      sandbox,
      api: `${server.url}/__sandboxes/${sandbox.id}/agent-server/api`,
      control: `${server.url}/__control/agent/conversations/${hex}`,
      headers: { 'X-Session-API-Key': sandbox.session_api_key },
    };
  }

  async function sample(target: Target): Promise<Sample> {
    const reply = await postJson<Sample>(`${target.control}/workspace/sample`, {});
    assert.equal(reply.status, 200, 'the preset is built');
    return reply.body;
  }

  const query = (target: Target, route: string, params: Record<string, string | string[]>): string => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(params))
      for (const item of Array.isArray(value) ? value : [value]) search.append(name, item);
    return `${target.api}${route}?${search}`;
  };

  it('lists the sample as the real server does: renames, binaries, and its own files as ADDED', async () => {
    const target = freshConversation();
    const built = await sample(target);
    assert.equal(built.dir, server.agent.sandboxDir(target.sandbox.id));
    assert.match(built.head ?? '', /^[0-9a-f]{40}$/, 'the base is a commit');

    const absolute = await getJson<Change[]>(query(target, '/git/changes', { path: built.dir }), {
      headers: target.headers,
    });
    const relative = await getJson<Change[]>(query(target, '/git/changes', { path: '.' }), {
      headers: target.headers,
    });
    assert.equal(absolute.status, 200);
    assert.deepEqual(absolute.body, built.changes, 'the preset answers what the route answers');
    assert.deepEqual(relative.body, absolute.body, 'a relative path resolves against the sandbox directory');

    const changes = absolute.body;
    assert.deepEqual(
      changes.filter((change) => !isAgentServerFile(change)),
      SAMPLE_CHANGES,
    );
    const own = changes.filter(isAgentServerFile);
    assert.ok(
      own.every((change) => change.status === 'ADDED'),
      'the agent server files are untracked',
    );
    assert.deepEqual(
      own.filter((change) => !change.path.startsWith('workspace/conversations/')),
      [{ status: 'ADDED', path: '.openhands-agent-server.log' }],
    );
    assert.ok(
      own.some((change) => change.path === `workspace/conversations/${target.hex}/meta.json`),
      'the conversation folder is in the workspace',
    );
    assert.deepEqual(
      changes.map((change) => change.path),
      [...changes.map((change) => change.path)].sort(),
      'sorted by path',
    );

    const info = await getJson<Record<string, unknown>>(`${target.api}/conversations/${target.hex}`, {
      headers: target.headers,
    });
    assert.deepEqual(info.body['workspace'], { working_dir: '.', kind: 'LocalWorkspace' });
    assert.equal(info.body['persistence_dir'], `workspace/conversations/${target.hex}`);

    const missing = await getJson(query(target, '/git/changes', { path: 'no/such/dir' }), {
      headers: target.headers,
    });
    assert.deepEqual(missing.body, [], 'not a repository: no changes');
    const badRef = await getJson(query(target, '/git/changes', { path: '.', ref: 'nope' }), {
      headers: target.headers,
    });
    assert.equal(badRef.status, 400);
    assert.deepEqual(badRef.body, {
      detail: "Git command failed: git --no-pager rev-parse --verify 'nope^{commit}'",
    });
  });

  it('diffs as the real server: stripped original, joined lines, 400 for missing or large files, 500 for a binary base', async () => {
    const target = freshConversation();
    const built = await sample(target);
    const diff = (file: string) =>
      getJson<Record<string, unknown>>(query(target, '/git/diff', { path: file }), {
        headers: target.headers,
      });

    assert.deepEqual((await diff('src/app.ts')).body, {
      modified: SAMPLE_APP_AFTER.replace(/\n$/, ''),
      original: SAMPLE_APP_BEFORE.trim(),
    });
    assert.deepEqual((await diff(path.join(built.dir, 'notes/new.md'))).body, {
      modified: SAMPLE_NOTES.replace(/\n$/, ''),
      original: '',
    });
    assert.deepEqual(
      (await diff('moved-to.txt')).body,
      { modified: SAMPLE_MOVED, original: '' },
      'by path only',
    );

    const deleted = await diff('old.txt');
    assert.equal(deleted.status, 400);
    assert.deepEqual(deleted.body, { detail: `File does not exist: ${path.join(built.dir, 'old.txt')}` });
    const big = await diff('big.txt');
    assert.equal(big.status, 400);
    assert.deepEqual(big.body, {
      detail: `File too large for git diff: ${Buffer.byteLength(sampleBigText())} bytes (max: 1048576 bytes)`,
    });

    // `git show` runs in text mode: the PNG in the base cannot be decoded, an uncaught error.
    const binary = await diff('logo.png');
    assert.equal(binary.status, 500);
    assert.equal(binary.body['detail'], 'Internal Server Error');
    assert.equal(
      binary.body['exception'],
      "'utf-8' codec can't decode byte 0x89 in position 0: invalid start byte",
    );
    assert.match(String(binary.body['error_id']), /^[0-9a-f]{32}$/);
  });

  it('downloads the bytes of an absolute path; 400 relative or a folder, 404 missing', async () => {
    const target = freshConversation();
    const built = await sample(target);
    const response = await fetch(
      query(target, '/file/download', { path: path.join(built.dir, 'logo.png') }),
      {
        headers: target.headers,
      },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/octet-stream');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="logo.png"');
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(SAMPLE_LOGO_AFTER), 'the current bytes');

    for (const [file, status, detail] of [
      ['logo.png', 400, 'Path must be absolute'],
      [path.join(built.dir, 'src'), 400, 'Path is not a file'],
      [path.join(built.dir, 'old.txt'), 404, 'File not found'],
    ] as const) {
      const reply = await getJson(query(target, '/file/download', { path: file }), {
        headers: target.headers,
      });
      assert.equal(reply.status, status, file);
      assert.deepEqual(reply.body, { detail }, file);
    }
  });

  it('archives a git delta that applies to a checkout of the base commit; exclude= drops paths', async () => {
    const target = freshConversation();
    const built = await sample(target);
    const scratch = mkdtempSync(path.join(tmpdir(), 'agent-workspace-test-'));
    try {
      const response = await fetch(
        query(target, '/file/archive', {
          path: built.dir,
          format: 'git-delta',
          exclude: ['workspace/', '.openhands-agent-server.log'],
        }),
        { headers: target.headers },
      );
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/x-patch; charset=utf-8');
      assert.equal(response.headers.get('x-archive-base-commit'), built.head);
      assert.equal(response.headers.get('x-archive-base-ref'), 'auto');
      assert.equal(
        response.headers.get('content-disposition'),
        `attachment; filename="${path.basename(built.dir)}.patch"`,
      );
      const patch = Buffer.from(await response.arrayBuffer());
      const text = patch.toString('utf8');
      assert.ok(!text.includes('.openhands-agent-server.log') && !text.includes('workspace/'), 'excluded');
      assert.match(text, /rename from moved-from\.txt\nrename to moved-to\.txt/);
      assert.match(text, /GIT binary patch/);

      const checkout = path.join(scratch, 'checkout');
      git(['clone', '-q', built.dir, checkout], scratch);
      assert.equal(git(['rev-parse', 'HEAD'], checkout).trim(), built.head, 'the clone is at the base');
      const patchFile = path.join(scratch, 'agent.patch');
      writeFileSync(patchFile, patch);
      git(['apply', '--check', patchFile], checkout);
      git(['apply', patchFile], checkout);
      assert.equal(readFileSync(path.join(checkout, 'src/app.ts'), 'utf8'), SAMPLE_APP_AFTER);
      assert.equal(readFileSync(path.join(checkout, 'moved-to.txt'), 'utf8'), SAMPLE_MOVED);
      assert.equal(readFileSync(path.join(checkout, 'big.txt'), 'utf8'), sampleBigText());
      assert.ok(readFileSync(path.join(checkout, 'logo.png')).equals(SAMPLE_LOGO_AFTER), 'binary applied');
      assert.ok(
        !existsSync(path.join(checkout, 'old.txt')) && !existsSync(path.join(checkout, 'moved-from.txt')),
      );
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }

    const badBase = await getJson(query(target, '/file/archive', { path: built.dir, base_ref: 'nope' }), {
      headers: target.headers,
    });
    assert.equal(badBase.status, 400);
    assert.deepEqual(badBase.body, { detail: "base_ref 'nope' could not be resolved" });
    const relative = await getJson(query(target, '/file/archive', { path: '.' }), {
      headers: target.headers,
    });
    assert.deepEqual([relative.status, relative.body], [400, { detail: 'Path must be absolute' }]);
  });

  it('wants the sandbox key on every git and file route', async () => {
    const target = freshConversation();
    const built = await sample(target);
    for (const route of ['/git/changes', '/git/diff', '/file/download', '/file/archive']) {
      const reply = await getJson(query(target, route, { path: path.join(built.dir, 'README.md') }));
      assert.equal(reply.status, 401, route);
      assert.deepEqual(reply.body, { detail: 'Unauthorized' }, route);
    }
  });

  it('control: writes, deletes and commits with stable hashes; a path outside the directory is a 400', async () => {
    const first = freshConversation();
    const written = await postJson<Sample>(`${first.control}/workspace`, {
      files: { 'a.txt': 'alpha\n', 'bin/b.dat': { base64: Buffer.from([0, 1, 2]).toString('base64') } },
      commit: 'base',
    });
    assert.equal(written.status, 200);
    assert.match(written.body.head ?? '', /^[0-9a-f]{40}$/);

    const edited = await postJson<Sample>(`${first.control}/workspace`, {
      files: { 'a.txt': null, 'c.txt': 'c', 'café.txt': 'é' },
    });
    assert.equal(edited.body.head, written.body.head, 'no commit without `commit`');
    const changes = await getJson<Change[]>(query(first, '/git/changes', { path: '.' }), {
      headers: first.headers,
    });
    assert.deepEqual(
      changes.body.filter((change) => !isAgentServerFile(change)),
      [
        // git's C-quoted name, its backslashes turned into "/" by the SDK's to_posix_path.
        { status: 'ADDED', path: '"caf/303/251.txt"' },
        { status: 'DELETED', path: 'a.txt' },
        { status: 'ADDED', path: 'c.txt' },
      ],
    );

    // The same files committed again after a reset give the same commit.
    server.reset();
    const again = freshConversation();
    const rewritten = await postJson<Sample>(`${again.control}/workspace`, {
      files: { 'a.txt': 'alpha\n', 'bin/b.dat': { base64: Buffer.from([0, 1, 2]).toString('base64') } },
      commit: 'base',
    });
    assert.equal(rewritten.body.head, written.body.head);

    for (const name of ['../escape.txt', '/etc/x', '.git/config']) {
      const refused = await postJson<{ error: string }>(`${again.control}/workspace`, {
        files: { [name]: 'x' },
      });
      assert.equal(refused.status, 400, name);
    }
    const unknown = await postJson(
      `${server.url}/__control/agent/conversations/${'0'.repeat(32)}/workspace`,
      {},
    );
    assert.equal(unknown.status, 404);
  });

  it("the scripted agent's edit lands in the sandbox directory and shows in git/changes", async () => {
    const target = freshConversation();
    assert.deepEqual((await postJson(`${target.control}/run`, {})).body, { outcome: 'started' });
    await eventuallyDefined(async () =>
      server.state.conversations.find((conversation) => conversation.id === target.hex)?.execution_status ===
      'finished'
        ? true
        : undefined,
    );
    const dir = server.agent.sandboxDir(target.sandbox.id);
    const events: AgentEvent[] = server.agent.events(target.hex);
    const edit = events.find(
      (event) => event.kind === 'ObservationEvent' && event['tool_name'] === 'file_editor',
    );
    const observation = edit?.['observation'] as Record<string, unknown> | undefined;
    assert.equal(observation?.['path'], path.join(dir, 'src/greeting.ts'), 'events name the absolute path');
    assert.equal(readFileSync(path.join(dir, 'src/greeting.ts'), 'utf8'), observation?.['new_content']);

    const changes = await getJson<Change[]>(query(target, '/git/changes', { path: dir }), {
      headers: target.headers,
    });
    assert.deepEqual(
      changes.body.filter((change) => !isAgentServerFile(change)),
      [{ status: 'ADDED', path: 'src/greeting.ts' }],
    );
  });

  it('a deleted sandbox takes its directory along; reset() clears them all', async () => {
    const target = freshConversation();
    const built = await sample(target);
    const response = await fetch(
      `${server.url}/api/v1/sandboxes/${target.sandbox.id}?sandbox_id=${target.sandbox.id}`,
      {
        method: 'DELETE',
      },
    );
    assert.equal(response.status, 200);
    assert.ok(!existsSync(built.dir), 'removed with the sandbox');

    const other = freshConversation();
    const rebuilt = await sample(other);
    server.reset();
    assert.ok(!existsSync(rebuilt.dir), 'reset() starts from empty sandboxes');
  });
});
