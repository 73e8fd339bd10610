import assert from 'node:assert/strict';
import { fieldForServerLoc } from '../../../../../src/webviews/mcpForm/shared/fieldPath';

describe('mcpForm mapping a 422 loc to a form field', () => {
  const envNames = (index: number) => (index === 1 ? ['A', 'TOKEN'] : []);
  const cases: [(string | number)[], string | undefined][] = [
    [['body', 'mcp_config', 'sse_servers', 0, 'url'], 'mcp.sse.0.url'],
    [['body', 'mcp_config', 'sse_servers', 2], 'mcp.sse.2.url'],
    [['body', 'mcp_config', 'shttp_servers', 1, 'timeout'], 'mcp.shttp.1.timeout'],
    [['body', 'mcp_config', 'shttp_servers', 1, 'api_key'], 'mcp.shttp.1.apiKey'],
    [['body', 'mcp_config', 'stdio_servers', 0, 'name'], 'mcp.stdio.0.name'],
    [['body', 'mcp_config', 'stdio_servers', 0, 'command'], 'mcp.stdio.0.command'],
    [['body', 'mcp_config', 'stdio_servers', 0, 'args', 3], 'mcp.stdio.0.args.3'],
    [['body', 'mcp_config', 'stdio_servers', 1, 'env', 'TOKEN'], 'mcp.stdio.1.env.1.name'],
    [['body', 'mcp_config', 'stdio_servers', 1, 'env'], 'mcp.stdio.1.env'],
    [['body', 'provider_tokens', 'gitlab', 'host'], 'providers.gitlab.host'],
    [['body', 'provider_tokens', 'gitlab', 'token'], 'providers.gitlab.token'],
    [['body', 'provider_tokens', 'foo', '[key]'], undefined],
    [['body', 'mcp_config'], undefined],
    [['body', 'llm_model'], undefined],
  ];
  for (const [loc, expected] of cases) {
    it(`${JSON.stringify(loc)} → ${expected ?? '(no field)'}`, () => {
      assert.equal(fieldForServerLoc(loc, envNames), expected);
    });
  }
});
