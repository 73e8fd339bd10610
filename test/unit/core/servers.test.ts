// The remembered servers (`openhands.servers`): entries that make no sense dropped, one entry per
// server however its URL is written, a re-saved server kept in its place, and the setting removed
// rather than left empty.
import assert from 'node:assert/strict';
import {
  defaultServerName,
  forgetServerEntry,
  parseServers,
  readServers,
  rememberServer,
} from '../../../src/core/servers';
import { settings } from '../../shared/vscodeStandIn/standIn';

describe('remembered servers', () => {
  it('drops entries that make no sense and the second entry of one server', () => {
    const servers = parseServers([
      null,
      'https://string.example.com',
      { url: 'ftp://x.example.com' },
      { name: 'No URL' },
      { url: 'https://a.example.com/', name: '  ', authHeader: 'Cookie', caFile: '  ', insecure: 'yes' },
      { url: 'https://A.EXAMPLE.com', name: 'Duplicate' },
      {
        url: 'http://localhost:3000',
        name: 'x'.repeat(100),
        authHeader: 'X-Access-Token',
        caFile: ' /ca.pem ',
      },
    ]);
    assert.deepEqual(servers, [
      { name: 'a.example.com', url: 'https://a.example.com', authHeader: 'X-Session-API-Key' },
      {
        name: 'x'.repeat(80),
        url: 'http://localhost:3000',
        authHeader: 'X-Access-Token',
        caFile: '/ca.pem',
      },
    ]);
    assert.deepEqual(parseServers({ url: 'https://a.example.com' }), []);
  });

  it('names a server by its host, Cloud by its name', () => {
    assert.equal(defaultServerName('https://app.all-hands.dev/'), 'OpenHands Cloud');
    assert.equal(defaultServerName('http://10.0.0.5:3000'), '10.0.0.5:3000');
  });

  it('replaces a remembered server in its place, adds a new one at the end, and writes the user setting', async () => {
    settings.set({
      'openhands.servers': [
        { name: 'One', url: 'https://one.example.com' },
        { name: 'Two', url: 'https://two.example.com' },
      ],
    });
    await rememberServer({ name: 'Uno', url: 'https://ONE.example.com', authHeader: 'Authorization' });
    await rememberServer({
      name: 'Three',
      url: 'https://three.example.com',
      authHeader: 'X-Session-API-Key',
    });
    assert.deepEqual(
      readServers().map((server) => [server.name, server.authHeader]),
      [
        ['Uno', 'Authorization'],
        ['Two', 'X-Session-API-Key'],
        ['Three', 'X-Session-API-Key'],
      ],
    );
    assert.ok(settings.updates.every((update) => update.key === 'openhands.servers' && update.target === 1));
  });

  it('forgets a server however its URL is written, and removes the setting with the last one', async () => {
    settings.set({
      'openhands.servers': [{ url: 'https://one.example.com' }, { url: 'https://two.example.com' }],
    });
    await forgetServerEntry('https://TWO.example.com/');
    assert.deepEqual(
      readServers().map((server) => server.url),
      ['https://one.example.com'],
    );
    await forgetServerEntry('https://one.example.com');
    assert.equal(settings.value('openhands.servers'), undefined);
    assert.equal(settings.updates.at(-1)?.value, undefined);
  });
});
