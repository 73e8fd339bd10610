// The check a save runs on the MCP servers it adds or changes (FormController with the real probe),
// against the test server for the settings and real local servers for MCP: one that answers as MCP
// (both transports) and a closed port.
import assert from 'node:assert/strict';
import { probeMcpServers } from '../../../../../src/api';
import { FormController } from '../../../../../src/webviews/mcpForm/host/formController';
import { FormSave } from '../../../../../src/webviews/mcpForm/host/formSave';
import { HostToWebviewSchema, type HostToWebview } from '../../../../../src/webviews/mcpForm/shared/protocol';
import { startMcpDouble, type McpDouble } from '../../../../shared/mcpServerDouble';
import { useTestServer } from '../../../api/harness';
import { draft, keep, MemoryFormStorage, MemoryLog, none, replace, STRINGS } from './fixtures';
import { closedHostPort } from '../../../../shared/closedPort';

describe('mcpForm: the MCP check before a save', () => {
  const t = useTestServer();
  let mcp: McpDouble;
  let dead: string;
  let posted: HostToWebview[];
  let log: MemoryLog;
  let store: MemoryFormStorage;
  let asked: string[][];
  let answer: boolean;
  let controller: FormController;

  before(async () => {
    mcp = await startMcpDouble();
    dead = await closedHostPort();
  });
  after(() => mcp.close());

  beforeEach(() => {
    posted = [];
    asked = [];
    answer = false;
    log = new MemoryLog();
    store = new MemoryFormStorage();
    mcp.requests.length = 0;
    controller = new FormController({
      post: (message) => posted.push(HostToWebviewSchema.parse(message)),
      target: { serverUrl: () => t.server.url, client: () => t.client },
      form: new FormSave(store, log, STRINGS),
      strings: STRINGS,
      log,
      showLog: () => undefined,
      configureServer: () => undefined,
      mcpCheck: {
        probe: (targets) => probeMcpServers(targets, { timeoutMs: 3_000 }),
        confirm: async (lines) => {
          asked.push(lines);
          return answer;
        },
      },
    });
  });

  async function save(form: ReturnType<typeof draft>): Promise<HostToWebview[]> {
    posted.length = 0;
    controller.receive({ type: 'save', draft: form });
    await controller.idle();
    return [...posted];
  }

  const writes = () => t.server.requests.filter((r) => r.method === 'POST').length;

  it('reachable servers: each entry says so, no question, saved', async () => {
    const key = 'check-key-reachable-01';
    const answers = await save(
      draft({
        serverUrl: t.server.url,
        mcp: {
          sse: [{ id: null, url: `${mcp.url}/sse?key=${key}`, apiKey: replace(key) }],
          shttp: [{ id: null, url: `${mcp.url}/mcp`, apiKey: none, timeout: '' }],
          stdio: [{ id: null, name: 'fetch', command: 'uvx', args: [], env: [] }],
        },
      }),
    );
    assert.deepEqual(
      answers.map((m) => (m.type === 'busy' ? `busy:${m.operation}` : m.type)),
      ['busy:save', 'busy:check', 'mcpChecks', 'busy:save', 'state', 'busy:null'],
    );
    const checks = answers.find((m) => m.type === 'mcpChecks');
    assert.deepEqual(checks, {
      type: 'mcpChecks',
      checks: [
        { kind: 'sse', index: 0, status: 'ok', message: STRINGS.checkOk },
        { kind: 'shttp', index: 0, status: 'ok', message: STRINGS.checkOk },
      ],
    });
    assert.deepEqual(asked, [], 'nothing to ask');
    assert.equal(mcp.requests.find((r) => r.method === 'GET')?.authorization, `Bearer ${key}`);
    const state = answers.find((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(state.outcome?.mcp.status, 'synced');
    assert.ok(!JSON.stringify(answers).includes(key), 'the key is not on the page');
    assert.ok(!log.lines.join('\n').includes(key), 'nor in the log');
  });

  it('an unreachable server: the entry says why, the user is asked, and Cancel sends nothing', async () => {
    const key = 'check-key-unreachable-02';
    const answers = await save(
      draft({
        serverUrl: t.server.url,
        mcp: {
          sse: [{ id: null, url: `http://${dead}/sse?api_key=in-url-secret-03`, apiKey: replace(key) }],
          shttp: [{ id: null, url: `${mcp.url}/mcp`, apiKey: none, timeout: '' }],
        },
      }),
    );
    const checks = answers.find((m) => m.type === 'mcpChecks');
    assert.ok(checks?.type === 'mcpChecks');
    assert.deepEqual(checks.checks[0], {
      kind: 'sse',
      index: 0,
      status: 'failed',
      message: `Could not reach ${dead} from VS Code: connection refused.`,
    });
    assert.equal(checks.checks[1]?.status, 'ok');
    assert.deepEqual(asked, [[`SSE server 1: Could not reach ${dead} from VS Code: connection refused.`]]);
    assert.deepEqual(answers.at(-2), { type: 'validationFailed', errors: { form: STRINGS.checkCancelled } });
    assert.equal(writes(), 0, 'nothing was written');
    assert.equal(store.saves, 0);
    const everything = JSON.stringify(answers) + log.lines.join('\n') + JSON.stringify(asked);
    for (const secret of [key, 'in-url-secret-03']) assert.ok(!everything.includes(secret), secret);
  });

  it('Save Anyway saves it', async () => {
    answer = true;
    const answers = await save(
      draft({
        serverUrl: t.server.url,
        mcp: { shttp: [{ id: null, url: `http://${dead}/mcp`, apiKey: none, timeout: '' }] },
      }),
    );
    assert.equal(asked.length, 1);
    const state = answers.find((m) => m.type === 'state');
    assert.ok(state?.type === 'state');
    assert.equal(state.outcome?.mcp.status, 'synced');
    assert.equal(state.model?.mcp.shttp[0]?.url, `http://${dead}/mcp`);
  });

  it('a server that is not MCP is named as such', async () => {
    await save(
      draft({
        serverUrl: t.server.url,
        mcp: { sse: [{ id: null, url: `${mcp.url}/page`, apiKey: none }] },
      }),
    );
    assert.match(
      asked[0]?.[0] ?? '',
      /^SSE server 1: Reached 127\.0\.0\.1:\d+ from VS Code, but it does not answer as an MCP server: it answered with text\/html, not an event stream\.$/,
    );
  });

  it('servers the save does not add or change are not checked again; a changed key is', async () => {
    answer = true;
    const url = `http://${dead}/sse`;
    await save(
      draft({ serverUrl: t.server.url, mcp: { sse: [{ id: null, url, apiKey: replace('first-key-04') }] } }),
    );
    assert.equal(asked.length, 1);
    const init = posted.find((m) => m.type === 'state');
    assert.ok(init?.type === 'state');
    const id = init.model?.mcp.sse[0]?.id ?? null;
    // a stdio server added beside it: the SSE server is as it was
    await save(
      draft({
        serverUrl: t.server.url,
        mcp: {
          sse: [{ id, url, apiKey: keep }],
          stdio: [{ id: null, name: 'fetch', command: 'uvx', args: [], env: [] }],
        },
      }),
    );
    assert.equal(asked.length, 1, 'not asked again');
    assert.ok(!posted.some((m) => m.type === 'mcpChecks'));
    await save(
      draft({
        serverUrl: t.server.url,
        mcp: {
          sse: [{ id, url, apiKey: replace('second-key-05') }],
          stdio: [{ id: null, name: 'fetch', command: 'uvx', args: [], env: [] }],
        },
      }),
    );
    assert.equal(asked.length, 2, 'a new key is checked');
  });
});
