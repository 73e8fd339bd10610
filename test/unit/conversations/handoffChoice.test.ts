// Which hand-off choices New Conversation offers for which local state and which git provider.
import assert from 'node:assert/strict';
import {
  handoffChoices,
  serverHasProvider,
  type HandoffSituation,
} from '../../../src/conversations/handoffChoice';

const ORIGIN = { name: 'origin/main', remote: 'origin', branch: 'main', commit: 'a'.repeat(40) };
const situation = (over: Partial<HandoffSituation>): HandoffSituation => ({
  cleanAndPushed: false,
  branch: 'main',
  detached: false,
  upstream: ORIGIN,
  ahead: 0,
  ...over,
});
const kinds = (over: Partial<HandoffSituation>, hasProvider: boolean) =>
  handoffChoices(situation(over), hasProvider).map((choice) =>
    choice.kind === 'push'
      ? `push ${choice.branch} to ${choice.upstream}`
      : choice.kind === 'remote-only'
        ? `remote-only ${choice.upstream ?? ''}`.trim()
        : choice.kind,
  );

describe('conversations: the hand-off choice', () => {
  it('asks nothing when all is on a remote the server clones from', () => {
    assert.deepEqual(kinds({ cleanAndPushed: true }, true), []);
  });

  it('commits ahead: push, bring my changes, or the remote only', () => {
    assert.deepEqual(kinds({ ahead: 2 }, true), [
      'push main to origin/main',
      'commits',
      'remote-only origin/main',
    ]);
  });

  it('only edits: nothing to push, so bring my changes or the remote only', () => {
    assert.deepEqual(kinds({ ahead: 0 }, true), ['commits', 'remote-only origin/main']);
  });

  it('a detached HEAD is never pushed', () => {
    assert.deepEqual(kinds({ ahead: 1, detached: true, branch: undefined }, true), [
      'commits',
      'remote-only origin/main',
    ]);
  });

  it('no upstream: the whole repository, or the remote only', () => {
    assert.deepEqual(kinds({ upstream: undefined, ahead: undefined }, true), ['archive', 'remote-only']);
  });

  it('no provider: bring my repository replaces push and bring my changes, even when all is pushed; starting without it is always offered', () => {
    assert.deepEqual(kinds({ ahead: 2 }, false), ['archive', 'without-local-work']);
    assert.deepEqual(kinds({ cleanAndPushed: true }, false), ['archive', 'without-local-work']);
    assert.deepEqual(kinds({ upstream: undefined }, false), ['archive', 'without-local-work']);
  });

  it('knows a provider by the default host or the host the settings name', () => {
    const github = { repository: 'o/r', provider: 'github' as const, host: 'github.com' };
    const own = { repository: 'o/r', provider: undefined, host: 'git.example.com' };
    assert.equal(serverHasProvider(github, { github: null }), true);
    assert.equal(serverHasProvider(github, { gitlab: null }), false);
    assert.equal(serverHasProvider(own, { gitlab: 'https://git.example.com/' }), true);
    assert.equal(serverHasProvider(own, { gitlab: null }), false);
    assert.equal(serverHasProvider(undefined, { github: null }), false, 'no remote');
    assert.equal(serverHasProvider(github, null), false, 'no token stored');
    assert.equal(serverHasProvider({ ...github, host: 'github.example.com' }, { github: null }), false);
  });
});
