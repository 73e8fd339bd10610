// What the client reads from the agent server's workspace routes, checked against the real server's
// answers (test/fixtures/agent-server/git, recorded from agent server 1.34.0 in a process sandbox).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  absoluteWorkspaceDir,
  agentChanges,
  type AgentEvent,
  type ConversationInfo,
  GitChangesSchema,
  isAgentServerFile,
  mayChangeWorkspace,
  relativeToWorkspace,
  workspacePath,
} from '../../../../src/api';
import { executionStatus, numberedEvents } from '../../../shared/agentEvents';
import { FIXTURES as TEST_FIXTURES } from '../../../shared/repository';

const FIXTURES = path.join(TEST_FIXTURES, 'agent-server', 'git');

function fixture(name: string): Record<string, { body?: unknown }> {
  return JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, { body?: unknown }>;
}

const numbered = numberedEvents();
/** A bare event: only the fields the function under test reads. */
function event(kind: string, fields: Record<string, unknown>): AgentEvent {
  return numbered({ source: 'environment', ...fields, kind });
}

const PROCESS_SANDBOX: ConversationInfo = {
  id: 'c',
  execution_status: 'finished',
  title: null,
  workspace: { working_dir: '.' },
  persistence_dir: 'workspace/conversations/abc',
};

describe('the agent workspace as the client reads it', () => {
  it("drops exactly the agent server's own files from the real server's list", () => {
    const changes = GitChangesSchema.parse(fixture('changes.json')['fresh_repo']?.body);
    assert.ok(changes.length > 5, 'the fixture lists the agent server files too');
    assert.deepEqual(agentChanges(changes), [{ status: 'ADDED', path: 'scripted-notes.md' }]);
    const pushed = GitChangesSchema.parse(fixture('changes.json')['origin_pushed']?.body);
    assert.deepEqual(
      agentChanges(pushed).map((change) => `${change.status} ${change.path}`),
      ['ADDED added.txt', 'UPDATED bin-committed.bin', 'DELETED gone.txt', 'UPDATED scripted-notes.md'],
    );
  });

  it('keeps files that only look like the agent server’s', () => {
    for (const kept of [
      'src/.openhands-agent-server.log.md',
      'workspace/notes.md',
      'my/workspace/conversations/a',
    ])
      assert.equal(isAgentServerFile(kept), false, kept);
    for (const dropped of [
      '.openhands-agent-server.log',
      'workspace/bash_events/x',
      'workspace/conversations/c/base_state.json',
    ])
      assert.equal(isAgentServerFile(dropped), true, dropped);
  });

  it('reads an unknown status as a plain change instead of failing the list', () => {
    const parsed = GitChangesSchema.parse([{ status: 'COPIED', path: 'a.txt' }]);
    assert.deepEqual(parsed, [{ status: 'UPDATED', path: 'a.txt' }]);
    assert.equal(GitChangesSchema.safeParse([{ status: 'ADDED', path: '' }]).success, false, 'an empty path');
  });

  it('takes an absolute working_dir as it is (Docker, hosted)', () => {
    const info = { ...PROCESS_SANDBOX, workspace: { working_dir: '/workspace/project/' } };
    assert.equal(absoluteWorkspaceDir(info, []), '/workspace/project');
  });

  it('finds a process sandbox’s folder from a file the agent edited that the change lists', () => {
    const edit = event('ObservationEvent', {
      tool_name: 'file_editor',
      observation: { kind: 'FileEditorObservation', path: '/tmp/openhands-sandboxes/sb1/src/deep/app.ts' },
    });
    assert.equal(
      absoluteWorkspaceDir(PROCESS_SANDBOX, [edit], ['src/deep/app.ts', 'app.ts']),
      '/tmp/openhands-sandboxes/sb1',
    );
  });

  it('else from the directory of its first command; nothing when the agent did nothing', () => {
    const command = (dir: string) =>
      event('ObservationEvent', {
        tool_name: 'terminal',
        observation: { kind: 'TerminalObservation', metadata: { working_dir: dir } },
      });
    assert.equal(
      absoluteWorkspaceDir(PROCESS_SANDBOX, [command('/tmp/sb2'), command('/tmp/sb2/sub')]),
      '/tmp/sb2',
    );
    assert.equal(absoluteWorkspaceDir(PROCESS_SANDBOX, [command('relative/dir')]), undefined);
    assert.equal(absoluteWorkspaceDir(PROCESS_SANDBOX, []), undefined);
  });

  it('for what the user reads, trusts no command folder: only the server or a listed edit', () => {
    const command = event('ObservationEvent', {
      tool_name: 'terminal',
      observation: { kind: 'TerminalObservation', metadata: { working_dir: '/tmp/sb2/src' } },
    });
    const edit = event('ObservationEvent', {
      tool_name: 'file_editor',
      observation: { kind: 'FileEditorObservation', path: '/tmp/sb2/src/app.ts' },
    });
    assert.equal(absoluteWorkspaceDir(PROCESS_SANDBOX, [command], [], false), undefined);
    assert.equal(absoluteWorkspaceDir(PROCESS_SANDBOX, [command, edit], ['src/app.ts'], false), '/tmp/sb2');
  });

  it('shows a path relative to the workspace folder; one outside it, or with no folder, stays whole', () => {
    const folder = '/tmp/x/openhands-sandboxes/abc';
    assert.equal(relativeToWorkspace(`${folder}/src/app.ts`, folder), 'src/app.ts');
    assert.equal(relativeToWorkspace(`${folder}/src/app.ts`, `${folder}/`), 'src/app.ts');
    assert.equal(relativeToWorkspace(`${folder}2/app.ts`, folder), `${folder}2/app.ts`);
    assert.equal(relativeToWorkspace('/etc/hosts', folder), '/etc/hosts');
    assert.equal(relativeToWorkspace(folder, folder), folder);
    assert.equal(relativeToWorkspace(`${folder}/src/app.ts`, undefined), `${folder}/src/app.ts`);
    assert.equal(relativeToWorkspace('src/app.ts', folder), 'src/app.ts');
    assert.equal(relativeToWorkspace('/workspace/project/a.txt', '/'), 'workspace/project/a.txt');
  });

  it('names a file as the server resolves it', () => {
    assert.equal(workspacePath('.', 'a/b.txt'), 'a/b.txt');
    assert.equal(workspacePath('/workspace/project/', 'a/b.txt'), '/workspace/project/a/b.txt');
  });

  it('reads again after an edit, a command or the agent stopping; not after its thoughts', () => {
    const observation = (kind: string, tool: string) =>
      event('ObservationEvent', { tool_name: tool, observation: { kind } });
    const status = (value: string) => numbered(executionStatus(value));
    assert.equal(mayChangeWorkspace(observation('FileEditorObservation', 'file_editor')), true);
    assert.equal(mayChangeWorkspace(observation('TerminalObservation', 'terminal')), true);
    assert.equal(mayChangeWorkspace(observation('ThinkObservation', 'think')), false);
    assert.equal(mayChangeWorkspace(status('finished')), true);
    assert.equal(mayChangeWorkspace(status('running')), false);
    assert.equal(mayChangeWorkspace(event('MessageEvent', {})), false);
  });
});
