// The header's line for a conversation started from the user's local state: what it says for commits and
// files (one and many, an archive hand-off), the lists it expands to with what was left out counted, and
// that the header a page receives with it passes the protocol's check, a record's long entries cut.
import assert from 'node:assert/strict';
import { handedOverHeader } from '../../../../../src/webviews/conversation/host/handedOverHeader';
import { panelHeader } from '../../../../../src/webviews/conversation/host/headerModel';
import { Transcript } from '../../../../../src/webviews/conversation/host/rows/transcript';
import { HeaderSchema } from '../../../../../src/webviews/conversation/shared/protocol';
import type { HandoffRecord } from '../../../../../src/state/handoffRecords';
import { feedState } from './feedFixture';

const CONVERSATION_ID = 'abcdef0123456789abcdef0123456789';

function record(fields: Partial<HandoffRecord> = {}): HandoffRecord {
  return {
    version: 1,
    server: 'f'.repeat(64),
    conversationId: CONVERSATION_ID,
    savedAt: 0,
    kind: 'commits',
    head: '0123456789abcdef0123456789abcdef01234567',
    branch: 'main',
    handedOver: { tree: 'a'.repeat(40), commit: 'b'.repeat(40) },
    sandboxBase: 'c'.repeat(40),
    workingCopy: '/workspace/app',
    commitCount: 3,
    commits: ['Add the login form', 'Fix the tests', 'Rename the helper'],
    editedCount: 4,
    editedFiles: ['src/login.ts', 'src/form.ts', 'test/login.test.ts', 'README.md'],
    untrackedCount: 1,
    untrackedFiles: ['notes/todo.md'],
    ...fields,
  };
}

describe('conversation panel header: started from your local state', () => {
  it('says the commits and files handed over, and lists them', () => {
    assert.deepEqual(handedOverHeader(record()), {
      summary: 'Started from your local state: 3 commits, 5 files',
      lists: [
        {
          heading: 'Commits not on the remote',
          items: ['Add the login form', 'Fix the tests', 'Rename the helper'],
          more: null,
        },
        {
          heading: 'Edited files',
          items: ['src/login.ts', 'src/form.ts', 'test/login.test.ts', 'README.md'],
          more: null,
        },
        { heading: 'New files you ticked', items: ['notes/todo.md'], more: null },
      ],
    });
    assert.equal(handedOverHeader(undefined), null, 'nothing without a record');
  });

  it('one commit and one file in the singular; an archive names the branch or HEAD; no empty list', () => {
    const one = handedOverHeader(
      record({
        commitCount: 1,
        commits: ['Only'],
        editedCount: 1,
        editedFiles: ['a.txt'],
        untrackedCount: 0,
        untrackedFiles: [],
      }),
    );
    assert.equal(one?.summary, 'Started from your local state: 1 commit, 1 file');
    assert.deepEqual(
      one?.lists.map((list) => list.heading),
      ['Commits not on the remote', 'Edited files'],
    );
    const archive = handedOverHeader(
      record({ kind: 'archive', commitCount: 0, commits: [], branch: undefined }),
    );
    assert.equal(archive?.summary, 'Started from your local state: your repository at 0123456789ab, 5 files');
    const bare = handedOverHeader(
      record({
        kind: 'archive',
        commitCount: 0,
        commits: [],
        editedCount: 0,
        editedFiles: [],
        untrackedCount: 0,
        untrackedFiles: [],
      }),
    );
    assert.deepEqual(bare, { summary: 'Started from your local state: your repository at main', lists: [] });
  });

  it('counts what the record could not list, and the page’s header with it passes the protocol’s check', () => {
    const long = 'x'.repeat(2000);
    const many = record({
      commitCount: 250,
      commits: Array.from({ length: 30 }, (_, index) => `${long}-${index}`),
      editedCount: 1000,
    });
    const handedOver = handedOverHeader(many);
    assert.equal(handedOver?.summary, 'Started from your local state: 250 commits, 1001 files');
    assert.equal(handedOver?.lists[0]?.more, 'and 220 more');
    assert.equal(handedOver?.lists[1]?.more, 'and 996 more');
    assert.ok(handedOver?.lists[0]?.items.every((item) => item.length <= 300));
    const header = panelHeader({
      conversationId: CONVERSATION_ID,
      feed: feedState(),
      conversation: undefined,
      eventCount: 0,
      rows: new Transcript(),
      outbox: [],
      busy: null,
      rejected: false,
      now: 0,
      handedOver,
    });
    assert.deepEqual(header.handedOver, handedOver);
    const checked = HeaderSchema.safeParse(header);
    assert.ok(checked.success, JSON.stringify(checked.error?.issues));
  });
});
