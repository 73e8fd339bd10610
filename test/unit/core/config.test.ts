// The settings as the extension reads them: a URL that is not one says why, nonsense numbers are
// clamped rather than fatal, an unknown choice falls back to the default, and a remembered server
// brings its own header and TLS choice.
import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultTls, expandHome, readConfig } from '../../../src/core/config';
import { settings } from '../../shared/vscodeStandIn/standIn';

describe('readConfig: the settings, checked', () => {
  it('without a server URL is “no server”, not a problem', () => {
    const config = readConfig();
    assert.equal(config.serverUrl, undefined);
    assert.equal(config.serverUrlProblem, undefined);
    assert.equal(config.serverName, '');
  });

  it('says why a server URL is not valid, keeping what the user typed for messages', () => {
    const cases: [string, RegExp][] = [
      ['localhost:3000/x y', /must start with http:\/\/ or https:\/\//],
      ['not a url', /"not a url" is not a URL\. Use a form like http:\/\/localhost:3000\./],
      ['ftp://files.example.com', /must start with http:\/\/ or https:\/\/ \(got ftp:\/\/\)/],
      ['https://example.com/?api_key=1', /must not contain a query/],
      ['https://user:pw@example.com', /Put credentials in the API key/],
    ];
    for (const [raw, problem] of cases) {
      settings.set({ 'openhands.serverUrl': raw });
      const config = readConfig();
      assert.equal(config.serverUrl, undefined, raw);
      assert.match(config.serverUrlProblem ?? '', problem, raw);
      assert.equal(config.rawServerUrl, raw);
    }
  });

  it('normalises a valid URL and names the server by its host, or Cloud by its name', () => {
    settings.set({ 'openhands.serverUrl': 'https://Work.Example.com:8443/' });
    assert.equal(readConfig().serverUrl, 'https://work.example.com:8443');
    assert.equal(readConfig().serverName, 'work.example.com:8443');
    settings.set({ 'openhands.serverUrl': 'https://app.all-hands.dev' });
    assert.equal(readConfig().serverName, 'OpenHands Cloud');
  });

  it('clamps numbers set to nonsense instead of failing', () => {
    settings.set({
      'openhands.requestTimeoutSeconds': 0,
      'openhands.refresh.activeIntervalSeconds': 1e9,
      'openhands.refresh.idleIntervalSeconds': Number.NaN,
      'openhands.pageSize': 7.6,
    });
    const config = readConfig();
    assert.equal(config.requestTimeoutMs, 1000);
    assert.equal(config.activeRefreshMs, 60_000);
    assert.equal(config.idleRefreshMs, 2000);
    assert.equal(config.pageSize, 8);
  });

  it('falls back to the default for a choice it does not know', () => {
    settings.set({
      'openhands.authHeader': 'Cookie',
      'openhands.httpLogLevel': 'everything',
      'openhands.notifications': 'loud',
      'openhands.confirmationPolicy': 'sometimes',
    });
    const config = readConfig();
    assert.equal(config.authHeader, 'X-Session-API-Key');
    assert.equal(config.httpLogLevel, 'requests');
    assert.equal(config.notifications, 'watched');
    assert.equal(config.confirmationPolicy, 'server');
    settings.set({ 'openhands.confirmationPolicy': 'risky', 'openhands.authHeader': 'Authorization' });
    assert.equal(readConfig().confirmationPolicy, 'risky');
    assert.equal(readConfig().authHeader, 'Authorization');
  });

  it('takes a remembered server’s header and TLS choice over the plain settings', () => {
    settings.set({
      'openhands.authHeader': 'X-Access-Token',
      'openhands.tls.caFile': '/etc/ca.pem',
      'openhands.servers': [
        { name: ' Work ', url: 'https://work.example.com/', authHeader: 'Authorization', insecure: true },
        { url: 'https://other.example.com' },
      ],
      'openhands.serverUrl': 'https://WORK.example.com',
    });
    const config = readConfig();
    assert.equal(config.serverName, 'Work');
    assert.equal(config.remembered, true);
    assert.equal(config.rememberedCount, 2);
    assert.equal(config.authHeader, 'Authorization');
    assert.equal(config.tlsInsecure, true);
    assert.equal(config.tlsCaFile, '/etc/ca.pem');
    settings.set({ 'openhands.serverUrl': 'https://third.example.com' });
    assert.equal(readConfig().remembered, false);
    assert.equal(readConfig().authHeader, 'X-Access-Token');
    assert.equal(readConfig().tlsInsecure, false);
  });

  it('expands `~/` in the CA file, and only there', () => {
    settings.set({ 'openhands.tls.caFile': ' ~/certs/ca.pem ' });
    assert.equal(defaultTls().caFile, path.join(os.homedir(), 'certs/ca.pem'));
    assert.equal(expandHome('~'), os.homedir());
    assert.equal(expandHome('/srv/~/ca.pem'), '/srv/~/ca.pem');
    assert.equal(expandHome('~other/ca.pem'), '~other/ca.pem');
  });
});
