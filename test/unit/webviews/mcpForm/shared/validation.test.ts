import assert from 'node:assert/strict';
import { fieldPath } from '../../../../../src/webviews/mcpForm/shared/fieldPath';
import {
  parseTimeout,
  urlIdentity,
  urlProblem,
  validateDraft,
} from '../../../../../src/webviews/mcpForm/shared/validation';
import { mcpConfigValidator } from '../../../../server/mcpConfig';
import { INVALID, type ValidationIssue } from '../../../../server/validation';
import { draft, keep, none, replace, STRINGS } from '../host/fixtures';

const sse = (url: string) => ({ id: null, url, apiKey: none });
const shttp = (url: string, timeout = '') => ({ id: null, url, apiKey: none, timeout });
const stdio = (name: string, command = 'uvx', args: string[] = [], env: { name: string }[] = []) => ({
  id: null,
  name,
  command,
  args,
  env: env.map((row) => ({ id: null, name: row.name, value: replace('v') })),
});

describe('mcpForm validation', () => {
  describe('MCP URLs', () => {
    for (const url of [
      'http://localhost:8080/sse',
      'https://mcp.example.com/mcp',
      'ws://10.0.0.2:9000',
      'wss://mcp.example.com',
      'HTTPS://Example.com',
      '  https://padded.example.com  ',
    ]) {
      it(`accepts ${JSON.stringify(url)}`, () => assert.equal(urlProblem(url), undefined));
    }
    const rejected: [string, string][] = [
      ['', 'empty'],
      ['   ', 'empty'],
      ['ftp://files.example.com', 'scheme'],
      ['mcp.example.com/sse', 'scheme'],
      ['file:///etc/passwd', 'scheme'],
      ['http://', 'host'],
      ['http:///path', 'host'],
      ['https://:443/x', 'host'],
      ['https:example.com', 'host'],
      ['https://exa mple.com', 'spaces'],
    ];
    for (const [url, problem] of rejected) {
      it(`rejects ${JSON.stringify(url)} (${problem})`, () => assert.equal(urlProblem(url), problem));
    }

    it('never accepts a URL the server would refuse (same validator as the test server)', () => {
      const samples = [
        'http://a',
        'ftp://a',
        'a',
        'http://',
        'ws://h:1/p?q',
        'gopher://x',
        'https:/x',
        '//x',
      ];
      for (const url of samples) {
        const issues: ValidationIssue[] = [];
        const server = mcpConfigValidator({ sse_servers: [{ url }] }, ['body'], issues);
        if (urlProblem(url) === undefined) assert.notEqual(server, INVALID, `server refuses ${url}`);
      }
    });

    it('a URL is unique across SSE and HTTP servers, ignoring case of scheme/host and a trailing slash', () => {
      const errors = validateDraft(
        draft({
          mcp: { sse: [sse('https://MCP.example.com/x/')], shttp: [shttp('https://mcp.example.com/x')] },
        }),
        STRINGS,
      );
      assert.deepEqual(errors, { [fieldPath.url('shttp', 0)]: STRINGS.errUrlDuplicate });
      assert.notEqual(
        urlIdentity('https://a.com/X'),
        urlIdentity('https://a.com/x'),
        'paths stay case-sensitive',
      );
    });

    it('puts each URL problem on its own field', () => {
      const errors = validateDraft(
        draft({ mcp: { sse: [sse(''), sse('ftp://x')], shttp: [shttp('http://')] } }),
        STRINGS,
      );
      assert.deepEqual(errors, {
        [fieldPath.url('sse', 0)]: STRINGS.errUrlEmpty,
        [fieldPath.url('sse', 1)]: STRINGS.errUrlScheme,
        [fieldPath.url('shttp', 0)]: STRINGS.errUrlHost,
      });
    });
  });

  describe('HTTP timeout', () => {
    for (const [raw, expected] of [
      ['', null],
      [' ', null],
      ['1', 1],
      ['60', 60],
      ['3600', 3600],
      ['0', 'invalid'],
      ['3601', 'invalid'],
      ['-5', 'invalid'],
      ['1.5', 'invalid'],
      ['1e3', 'invalid'],
      ['ten', 'invalid'],
    ] as const) {
      it(`${JSON.stringify(raw)} → ${String(expected)}`, () => assert.equal(parseTimeout(raw), expected));
    }

    it('an out-of-range timeout is reported on its field', () => {
      const errors = validateDraft(draft({ mcp: { shttp: [shttp('https://a.example.com', '0')] } }), STRINGS);
      assert.deepEqual(errors, { [fieldPath.timeout(0)]: STRINGS.errTimeout });
    });
  });

  describe('stdio servers', () => {
    it('the name matches [A-Za-z0-9_-]+ and is unique', () => {
      const errors = validateDraft(
        draft({
          mcp: {
            stdio: [stdio('fetch-1_A'), stdio(''), stdio('has space'), stdio('fetch-1_A'), stdio('ok.dot')],
          },
        }),
        STRINGS,
      );
      assert.deepEqual(errors, {
        [fieldPath.name(1)]: STRINGS.errNameEmpty,
        [fieldPath.name(2)]: STRINGS.errNamePattern,
        [fieldPath.name(3)]: STRINGS.errNameDuplicate,
        [fieldPath.name(4)]: STRINGS.errNamePattern,
      });
    });

    it('the command is non-empty and has no spaces', () => {
      const errors = validateDraft(
        draft({ mcp: { stdio: [stdio('a', ''), stdio('b', 'npx -y server'), stdio('c', ' uvx ')] } }),
        STRINGS,
      );
      assert.deepEqual(errors, {
        [fieldPath.command(0)]: STRINGS.errCommandEmpty,
        [fieldPath.command(1)]: STRINGS.errCommandSpaces,
      });
    });

    it('args are a list; an empty one is reported on its row', () => {
      const errors = validateDraft(
        draft({ mcp: { stdio: [stdio('a', 'npx', ['-y', '  ', 'x y'])] } }),
        STRINGS,
      );
      assert.deepEqual(errors, { [fieldPath.arg(0, 1)]: STRINGS.errArgEmpty });
    });

    it('env keys are valid, unique names', () => {
      const env = [
        { name: 'API_TOKEN' },
        { name: '_x1' },
        { name: '1BAD' },
        { name: 'WITH-DASH' },
        { name: '' },
        { name: 'API_TOKEN' },
      ];
      const errors = validateDraft(draft({ mcp: { stdio: [stdio('a', 'npx', [], env)] } }), STRINGS);
      assert.deepEqual(errors, {
        [fieldPath.envName(0, 2)]: STRINGS.errEnvName,
        [fieldPath.envName(0, 3)]: STRINGS.errEnvName,
        [fieldPath.envName(0, 4)]: STRINGS.errEnvName,
        [fieldPath.envName(0, 5)]: STRINGS.errEnvDuplicate,
      });
    });

    it('an env value may be empty (it is a value, not a key)', () => {
      const entry = { ...stdio('a'), env: [{ id: null, name: 'EMPTY', value: replace('') }] };
      assert.deepEqual(validateDraft(draft({ mcp: { stdio: [entry] } }), STRINGS), {});
    });
  });

  describe('secrets and providers', () => {
    it('a replaced API key or token must not be empty; a token has no spaces', () => {
      const errors = validateDraft(
        draft({
          providers: [
            { provider: 'github', host: '', token: replace('  ') },
            { provider: 'gitlab', host: '', token: replace('glpat abc') },
            { provider: 'bitbucket', host: '', token: replace(' bb-token ') },
          ],
          mcp: { sse: [{ id: null, url: 'https://a.example.com', apiKey: replace('') }] },
        }),
        STRINGS,
      );
      assert.deepEqual(errors, {
        [fieldPath.providerToken('github')]: STRINGS.errSecretEmpty,
        [fieldPath.providerToken('gitlab')]: STRINGS.errTokenSpaces,
        [fieldPath.apiKey('sse', 0)]: STRINGS.errSecretEmpty,
      });
    });

    it('a host is a host name (optionally with port), not a URL', () => {
      const errors = validateDraft(
        draft({
          providers: [
            { provider: 'github', host: 'https://github.acme.dev', token: keep },
            { provider: 'gitlab', host: 'gitlab.acme.dev:8443', token: keep },
            { provider: 'bitbucket', host: 'bad host', token: keep },
          ],
        }),
        STRINGS,
      );
      assert.deepEqual(errors, {
        [fieldPath.providerHost('github')]: STRINGS.errHostScheme,
        [fieldPath.providerHost('bitbucket')]: STRINGS.errHostInvalid,
      });
    });

    it('a complete, valid draft has no errors', () => {
      const valid = draft({
        providers: [
          { provider: 'github', host: '', token: replace('ghp_abc') },
          { provider: 'gitlab', host: 'gitlab.acme.dev', token: keep },
          { provider: 'bitbucket', host: '', token: none },
        ],
        mcp: {
          sse: [sse('https://sse.example.com/sse')],
          shttp: [shttp('https://http.example.com/mcp', '90')],
          stdio: [stdio('fetch', 'uvx', ['mcp-server-fetch'], [{ name: 'TOKEN' }])],
        },
      });
      assert.deepEqual(validateDraft(valid, STRINGS), {});
    });
  });
});
