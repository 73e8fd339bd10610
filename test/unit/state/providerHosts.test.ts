// The providers' hosts a PR link is made on, read from the settings over real HTTP against the test
// server: once per client, the self-hosted host the provider token names, `{}` when the read fails.
import assert from 'node:assert/strict';
import { ProviderHostsCache } from '../../../src/state/providerHosts';
import { pullRequestUrl } from '../../../src/state/pullRequestLinks';
import { useTestServer } from '../api/harness';

const SETTINGS_PATH = /^\/api(\/v1)?\/settings$/;

describe('ProviderHostsCache (the providers’ hosts for PR links)', () => {
  const t = useTestServer({ legacySettingsRoutes: false });
  const settingsReads = () => t.server.requests.filter((r) => SETTINGS_PATH.test(r.path)).length;

  it('reads the self-hosted host once per client and keeps no token', async () => {
    t.server.state.providerTokens = {
      gitlab: { token: 'glpat-secret-host-test', user_id: null, host: 'gitlab.acme.dev' },
      github: { token: 'ghp-secret-host-test', user_id: null, host: null },
    };
    const cache = new ProviderHostsCache(() => t.client);
    assert.equal(cache.known(), undefined);
    let changes = 0;
    cache.onDidChange(() => changes++);
    const hosts = await cache.read();
    assert.deepEqual(hosts, { gitlab: 'gitlab.acme.dev', github: null });
    assert.equal(pullRequestUrl('gitlab', 'a/b', 3, hosts), 'https://gitlab.acme.dev/a/b/-/merge_requests/3');
    const afterFirst = settingsReads();
    assert.ok(afterFirst >= 1);
    await cache.read();
    assert.equal(settingsReads(), afterFirst, 'read once');
    assert.equal(changes, 1);
    assert.deepEqual(cache.known(), hosts);
    assert.ok(!JSON.stringify(cache.known()).includes('secret-host-test'));
  });

  it('a failed read gives no host (public links) and is asked again next time', async () => {
    t.server.state.settings = null;
    const cache = new ProviderHostsCache(() => t.client);
    assert.equal(cache.known(), undefined, 'nothing known before the read');
    assert.deepEqual(await cache.read(), {});
    assert.deepEqual(cache.known(), {}, 'settled: the public hosts');
    const afterFirst = settingsReads();
    await cache.read();
    assert.ok(settingsReads() > afterFirst, 'asked again');
  });
});
