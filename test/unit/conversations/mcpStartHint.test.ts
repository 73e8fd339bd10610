import assert from 'node:assert/strict';
import { ApiError, SettingsSchema, StartTaskFailedError } from '../../../src/api';
import {
  configuredMcpServers,
  mayBeMcpStartFailure,
  namedServers,
} from '../../../src/conversations/mcpStartHint';

/** What openhands-ai 1.11.0 put in the start task with an MCP server on a closed port (either transport). */
const REAL_DETAIL =
  "Server error '500 Internal Server Error' for url 'http://localhost:8000/api/conversations'\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/500";

function failedTask(detail: string | null): StartTaskFailedError {
  return new StartTaskFailedError({
    id: 'a'.repeat(32),
    created_by_user_id: null,
    status: 'ERROR',
    detail,
    app_conversation_id: null,
    sandbox_id: null,
    agent_server_url: null,
    request: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  } as unknown as ConstructorParameters<typeof StartTaskFailedError>[0]);
}

describe('mcpStartHint: which MCP servers a failed start names', () => {
  it('the agent server’s 500 (as the real server reports it), an empty detail or a 500 reply may be MCP', () => {
    assert.equal(mayBeMcpStartFailure(failedTask(REAL_DETAIL)), true);
    assert.equal(mayBeMcpStartFailure(failedTask('')), true);
    assert.equal(mayBeMcpStartFailure(new ApiError({ kind: 'server', status: 500, message: 'x' })), true);
  });

  it('other failures are not blamed on MCP', () => {
    assert.equal(mayBeMcpStartFailure(failedTask('the repository could not be cloned')), false);
    assert.equal(mayBeMcpStartFailure(new ApiError({ kind: 'server', status: 503, message: 'x' })), false);
    assert.equal(mayBeMcpStartFailure(new ApiError({ kind: 'network', message: 'x' })), false);
    assert.equal(mayBeMcpStartFailure(new Error('x')), false);
  });

  it('names 1.11’s servers by name and host (never a credential), stdio by name and command', () => {
    const settings = SettingsSchema.parse({
      agent_settings: {
        mcp_config: {
          probe: { url: 'http://me:secret-pw-1@127.0.0.1:9/sse?api_key=secret-2', transport: 'sse' },
          fetch: { command: 'uvx', args: ['mcp-server-fetch'] },
        },
      },
    });
    assert.deepEqual(configuredMcpServers(settings), ['probe (127.0.0.1:9)', 'fetch (uvx)']);
  });

  it('names older servers’ lists; none configured names none', () => {
    const settings = SettingsSchema.parse({
      mcp_config: {
        sse_servers: [{ url: 'https://sse.example.com/sse', api_key: 'k' }],
        shttp_servers: [],
        stdio_servers: [{ name: 'fetch', command: 'uvx' }],
      },
    });
    assert.deepEqual(configuredMcpServers(settings), ['sse.example.com', 'fetch (uvx)']);
    assert.deepEqual(configuredMcpServers(SettingsSchema.parse({ agent_settings: { mcp_config: {} } })), []);
  });

  it('names five, then counts the rest', () => {
    const labels = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    assert.equal(
      namedServers(labels, (n) => `and ${n} more`),
      'a, b, c, d, e and 2 more',
    );
  });
});
