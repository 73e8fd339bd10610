// The hand-off records in a workspace's state: one per conversation and server, bounded in count and
// size, read back after a reload (a new store on the same memento), and holding no secret.
import assert from 'node:assert/strict';
import {
  HANDOFF_RECORDS_KEY,
  HandoffRecords,
  MAX_LISTED,
  MAX_RECORDS,
  MAX_TEXT_CHARS,
  serverKey,
  type HandoffRecordInput,
} from '../../../src/state/handoffRecords';
import { MemoryMemento } from '../../shared/vscodeStandIn/storage';

const TREE = 'a'.repeat(40);
const COMMIT = 'b'.repeat(40);
const SANDBOX = 'c'.repeat(40);
const ID = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';

function input(overrides: Partial<HandoffRecordInput> = {}): HandoffRecordInput {
  return {
    kind: 'commits',
    head: 'd'.repeat(40),
    branch: 'main',
    handedOver: { tree: TREE, commit: COMMIT },
    sandboxBase: SANDBOX,
    workingCopy: '/workspace/project/app',
    commitCount: 2,
    commits: ['first', 'second'],
    editedCount: 1,
    editedFiles: ['app.txt'],
    untrackedCount: 1,
    untrackedFiles: ['notes.txt'],
    ...overrides,
  };
}

describe('state: hand-off records', function () {
  let memento: MemoryMemento;
  let url: string | undefined;
  let clock: number;
  const records = () =>
    new HandoffRecords(
      memento,
      () => url,
      () => clock,
    );

  beforeEach(function () {
    memento = new MemoryMemento();
    url = 'https://openhands.example.com';
    clock = 1_000;
  });

  it('a saved record is read back by a new store on the same state (a window reload), for its server only', async function () {
    await records().save(ID.replaceAll('-', ''), input());
    const read = records().get(ID.toUpperCase());
    assert.equal(read?.conversationId, ID.replaceAll('-', ''));
    assert.deepEqual(read?.handedOver, { tree: TREE, commit: COMMIT });
    assert.equal(read?.sandboxBase, SANDBOX);
    assert.deepEqual(read?.commits, ['first', 'second']);
    assert.equal(read?.savedAt, 1_000);
    url = 'https://other.example.com';
    assert.equal(records().get(ID), undefined, 'another server has no record of it');
    url = undefined;
    assert.equal(records().get(ID), undefined);
    assert.equal(await records().save(ID, input()), undefined, 'nothing is kept without a server');
  });

  it('saving again replaces the conversation’s record; past the bound the oldest go', async function () {
    const store = records();
    await store.save(ID, input({ commitCount: 1 }));
    await store.save(ID, input({ commitCount: 5 }));
    assert.equal(memento.get<unknown[]>(HANDOFF_RECORDS_KEY)?.length, 1);
    assert.equal(store.get(ID)?.commitCount, 5);
    for (let index = 0; index < MAX_RECORDS + 5; index++) {
      clock += 1;
      await store.save(`conversation-${index}`, input());
    }
    const kept = memento.get<{ conversationId: string }[]>(HANDOFF_RECORDS_KEY) ?? [];
    assert.equal(kept.length, MAX_RECORDS);
    assert.equal(store.get(ID), undefined, 'the oldest went first');
    assert.equal(store.get('conversation-4'), undefined);
    assert.ok(store.get('conversation-5'));
    assert.ok(store.get(`conversation-${MAX_RECORDS + 4}`));
  });

  it('each list holds at most MAX_LISTED entries of at most MAX_TEXT_CHARS, the counts stay whole', async function () {
    const many = (prefix: string) =>
      Array.from({ length: 500 }, (_, index) => `${prefix}/${'x'.repeat(index % 2 ? 2000 : 5)}-${index}`);
    const saved = await records().save(
      ID,
      input({
        commitCount: 500,
        commits: many('subject'),
        editedCount: 500,
        editedFiles: many('edited'),
        untrackedCount: 500,
        untrackedFiles: many('new'),
        branch: 'b'.repeat(5000),
      }),
    );
    for (const list of [saved?.commits, saved?.editedFiles, saved?.untrackedFiles]) {
      assert.equal(list?.length, MAX_LISTED);
      assert.ok(list.every((text) => text.length <= MAX_TEXT_CHARS));
    }
    assert.equal(saved?.editedFiles[1]?.endsWith('-1'), true, 'a long path keeps its tail');
    assert.equal(saved?.commitCount, 500);
    assert.ok((saved?.branch?.length ?? 0) <= MAX_TEXT_CHARS);
    assert.ok(memento.dump().length < 3 * MAX_LISTED * MAX_TEXT_CHARS + 2000, 'one record stays small');
  });

  it('holds no secret: not the server’s address nor a credential in it, nor one in a commit subject', async function () {
    const token = 'ghp_recordCanary0123456789abcdef';
    url = `https://user:${token}@openhands.example.com/?api_key=${token}`;
    await records().save(
      ID,
      input({ commits: [`fix the clone from https://bot:${token}@github.com/o/r.git`] }),
    );
    const stored = memento.dump();
    assert.ok(!stored.includes(token), stored);
    assert.ok(!stored.includes('openhands.example.com'));
    assert.ok(stored.includes(serverKey(url)));
    assert.match(records().get(ID)?.commits[0] ?? '', /\[redacted\]@github\.com/);
  });

  it('an entry that does not read as a record is skipped, not trusted', async function () {
    await memento.update(HANDOFF_RECORDS_KEY, [
      {
        ...input(),
        version: 1,
        server: serverKey(url ?? ''),
        conversationId: ID,
        savedAt: 1,
        sandboxBase: '-x',
      },
      'text',
      null,
    ]);
    assert.equal(records().get(ID), undefined);
    await memento.update(HANDOFF_RECORDS_KEY, { not: 'a list' });
    assert.equal(records().get(ID), undefined);
    await records().save(ID, input());
    assert.ok(records().get(ID));
  });
});
