// The compiled checks (src/api/models/fastParse.ts) against zod itself, over every reply schema of the
// client: on the test server's replies read over HTTP, the real agent server's frames, and each of
// them broken key by key. Wherever the compiled check answers, its value equals zod's; wherever zod
// refuses, it doubts; it never changes its input; and on the replies the extension lists by the
// thousand (conversations, sandboxes, events) it answers without zod.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import type { core } from 'zod/mini';
import * as agentEvents from '../../../../src/api/agentServer/events';
import * as workspace from '../../../../src/api/agentServer/workspace';
import * as models from '../../../../src/api/models';
import { DOUBT, fastParser } from '../../../../src/api/models/fastParse';
import { startTestServer, type TestServer } from '../../../server';
import { REPOSITORY_ROOT, FIXTURES } from '../../../shared/repository';

type Schema = core.$ZodType & { safeParse(value: unknown): { success: boolean; data?: unknown } };

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && '_zod' in value && 'safeParse' in value;
}

const SCHEMAS: [string, Schema][] = Object.entries({ ...models, ...agentEvents, ...workspace } as Record<
  string,
  unknown
>).filter((entry): entry is [string, Schema] => isSchema(entry[1]));

/** The same value with one thing broken: each key left out, or given another kind of value; and more. */
function variants(value: unknown, depth = 0): unknown[] {
  if (typeof value !== 'object' || value === null) return [];
  if (Array.isArray(value))
    return value.length > 0
      ? [[], [null], [...value, 7], ...variants(value[0], depth + 1).map((v) => [v])]
      : [];
  const record = value as Record<string, unknown>;
  const out: unknown[] = [{ ...record, an_unknown_key: { kept: true } }, [record], 'text'];
  for (const key of Object.keys(record)) {
    const { [key]: _left, ...without } = record;
    out.push(without);
    for (const other of [null, 0, -1.5, 'x', '', true, [], {}, ['x']]) out.push({ ...record, [key]: other });
    if (depth < 2)
      for (const deeper of variants(record[key], depth + 1)) out.push({ ...record, [key]: deeper });
  }
  // a key that assignment would take for the prototype
  out.push(JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(record).slice(1)}`));
  return out;
}

describe('compiled reply checks (fastParse) agree with zod', function () {
  this.timeout(120_000);
  let server: TestServer;
  const corpus: { name: string; value: unknown }[] = [];

  before(async () => {
    server = await startTestServer({ seed: { sandboxes: 6, conversations: 12 } });
    const read = async (route: string) => {
      const reply = await fetch(`${server.url}${route}`);
      assert.equal(reply.status, 200, route);
      return (await reply.json()) as unknown;
    };
    const conversations = (await read('/api/v1/app-conversations/search?limit=4')) as { items: unknown[] };
    const sandboxes = (await read('/api/v1/sandboxes/search?limit=4')) as { items: unknown[] };
    corpus.push(
      { name: 'conversation page', value: conversations },
      ...conversations.items.map((value, i) => ({ name: `conversation ${i}`, value })),
      { name: 'sandbox page', value: sandboxes },
      ...sandboxes.items.map((value, i) => ({ name: `sandbox ${i}`, value })),
      { name: 'sandbox specs', value: await read('/api/v1/sandbox-specs/search') },
    );
    const frames = JSON.parse(
      fs.readFileSync(path.join(FIXTURES, 'agent-server/frames-1.34.0.json'), 'utf8'),
    ) as { frames: Record<string, unknown> };
    const events = Object.values(frames.frames).filter(
      (frame): frame is Record<string, unknown> =>
        typeof frame === 'object' && frame !== null && 'kind' in frame,
    );
    assert.ok(events.length > 5, `${events.length} agent server frames`);
    corpus.push(
      { name: 'event page', value: { items: events, next_page_id: null } },
      ...events.map((value, i) => ({ name: `event ${i} (${String(value.kind)})`, value })),
    );
  });
  after(() => server.close());

  it("answers without zod for the lists read by the thousand, with zod's value", () => {
    const hot: [string, Schema][] = [
      ['conversation page', models.AppConversationPageSchema as Schema],
      ['sandbox page', models.SandboxPageSchema as Schema],
      ['event page', agentEvents.AgentEventPageSchema as Schema],
    ];
    for (const [name, schema] of hot) {
      const reply = corpus.find((entry) => entry.name === name)?.value;
      const fast = fastParser(schema)(reply);
      assert.notEqual(fast, DOUBT, `${name}: the compiled check doubted a good reply`);
      assert.deepEqual(fast, schema.safeParse(reply).data, name);
    }
  });

  it("gives zod's value or doubts, for every schema on every reply and each of its broken forms", () => {
    let answered = 0;
    let doubted = 0;
    for (const { name, value } of corpus) {
      for (const candidate of [value, ...variants(value)]) {
        const before = structuredClone(candidate);
        for (const [schemaName, schema] of SCHEMAS) {
          const zod = schema.safeParse(candidate);
          const fast = fastParser(schema)(candidate);
          const where = `${schemaName} on ${name}: ${JSON.stringify(candidate)?.slice(0, 300)}`;
          if (fast === DOUBT) {
            doubted++;
            continue;
          }
          answered++;
          assert.ok(zod.success, `zod refuses what the compiled check accepted: ${where}`);
          assert.ok(isDeepStrictEqual(fast, zod.data), `values differ: ${where}`);
        }
        assert.deepEqual(candidate, before, `${name}: a check changed its input`);
      }
    }
    assert.ok(answered > 1000 && doubted > 1000, `answered ${answered}, doubted ${doubted}`);
  });

  it('compiles a schema that holds itself (a tree of nodes) without end, and agrees with zod on it', () => {
    interface TreeNode {
      name: string;
      children: TreeNode[];
    }
    const NodeSchema: z.ZodMiniType<TreeNode> = z.looseObject({
      name: z.string(),
      get children() {
        return z._default(z.array(NodeSchema), []);
      },
    });
    const tree = {
      name: 'root',
      children: [{ name: 'leaf' }, { name: 'branch', children: [{ name: 'x' }] }],
    };
    const fast = fastParser(NodeSchema)(tree);
    assert.notEqual(fast, DOUBT);
    assert.deepEqual(fast, NodeSchema.safeParse(tree).data);
    assert.equal(fastParser(NodeSchema)({ name: 'root', children: [{ name: 7 }] }), DOUBT);
  });

  it('falls back to zod, with the same answers, where code may not be made from strings', () => {
    // the checks are compiled with `new Function`; a host that forbids it must still get zod's values
    const script = `
      const { isDeepStrictEqual } = require('node:util');
      const { fastParser, DOUBT } = require('./src/api/models/fastParse');
      const { AppConversationPageSchema } = require('./src/api/models');
      let evalRefused = false;
      try { new Function('return 1'); } catch { evalRefused = true; }
      const replies = JSON.parse(process.argv[1]);
      const agree = replies.map((reply) => {
        const fast = fastParser(AppConversationPageSchema)(reply);
        const zod = AppConversationPageSchema.safeParse(reply);
        return fast === DOUBT ? !zod.success : zod.success && isDeepStrictEqual(fast, zod.data);
      });
      process.stdout.write(JSON.stringify({ evalRefused, agree }));`;
    const page = corpus.find((entry) => entry.name === 'conversation page')?.value as { items: unknown[] };
    const replies = [page, { ...page, items: [...page.items, { id: 7 }] }];
    const output = execFileSync(
      process.execPath,
      ['--disallow-code-generation-from-strings', '--import', 'tsx', '-e', script, JSON.stringify(replies)],
      { cwd: REPOSITORY_ROOT, encoding: 'utf8' },
    );
    assert.deepEqual(JSON.parse(output), { evalRefused: true, agree: [true, true] });
  });

  it('gives a default afresh each time, never one shared with an earlier answer', () => {
    const schema = models.AppConversationSchema as Schema;
    const conversation = corpus.find((entry) => entry.name === 'conversation 0')?.value as Record<
      string,
      unknown
    >;
    const { pr_number: _left, ...withoutPrs } = conversation;
    const first = fastParser(schema)(withoutPrs) as { pr_number: number[] };
    const second = fastParser(schema)(withoutPrs) as { pr_number: number[] };
    assert.deepEqual(first.pr_number, []);
    assert.notEqual(first.pr_number, second.pr_number);
  });
});
