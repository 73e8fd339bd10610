// Sending the API key over plain http:// to another machine: loopback never asks, anything else asks
// the user, a yes is remembered per server, and the quiet notification is asked once a session.
import assert from 'node:assert/strict';
import { MementoManager } from '../../../src/core/mementoManager';
import { isPlainHttpToAnotherHost, PlainHttpConsent } from '../../../src/core/plainHttp';
import { MemoryMemento, prompts } from '../../shared/vscodeStandIn/standIn';

describe('plain-http consent', () => {
  it('tells loopback from another machine', () => {
    for (const url of [
      'http://localhost:3000',
      'http://app.localhost',
      'http://127.1.2.3:80',
      'http://[::1]:3000',
    ])
      assert.equal(isPlainHttpToAnotherHost(url), false, url);
    for (const url of ['http://10.0.0.5:3000', 'http://openhands.lan', 'http://127.0.0.1.nip.io'])
      assert.equal(isPlainHttpToAnotherHost(url), true, url);
    assert.equal(isPlainHttpToAnotherHost('https://openhands.lan'), false);
    assert.equal(isPlainHttpToAnotherHost('not a url'), false);
  });

  it('asks modally with the reason as detail, and remembers a yes for that server only', async () => {
    const consent = new PlainHttpConsent(new MementoManager(new MemoryMemento()));
    prompts.answer('warning', 'Send over HTTP');
    assert.equal(await consent.ask('http://10.0.0.5:3000', { modal: true }), true);
    const [asked] = prompts.of('warning');
    assert.equal(asked?.modal, true);
    assert.equal(asked?.message, 'Send your OpenHands API key to http://10.0.0.5:3000 unencrypted?');
    assert.match(asked?.detail ?? '', /anyone on the network/);
    assert.deepEqual(asked?.choices, ['Send over HTTP']);
    assert.equal(consent.allows('http://10.0.0.5:3000/'), true);
    assert.equal(consent.allows('http://10.0.0.6:3000'), false);
    await consent.revoke('HTTP://10.0.0.5:3000');
    assert.equal(consent.allows('http://10.0.0.5:3000'), false);
  });

  it('asks by notification at most once a session, and a dismissal allows nothing', async () => {
    const consent = new PlainHttpConsent(new MementoManager(new MemoryMemento()));
    assert.equal(await consent.ask('http://10.0.0.5:3000', { modal: false }), false);
    assert.equal(await consent.ask('http://10.0.0.5:3000/', { modal: false }), false);
    assert.equal(prompts.of('warning').length, 1);
    const [asked] = prompts.of('warning');
    assert.equal(asked?.modal, false);
    assert.match(asked?.message ?? '', /unencrypted\? The server URL starts with http:\/\//);
    assert.deepEqual(asked?.choices, ['Send over HTTP', 'Not Now']);
    assert.equal(consent.allows('http://10.0.0.5:3000'), false);
    // Set API Key… asks modally, whatever was asked before
    prompts.answer('warning', 'Send over HTTP');
    assert.equal(await consent.ask('http://10.0.0.5:3000', { modal: true }), true);
    assert.equal(consent.allows('http://10.0.0.5:3000'), true);
  });
});
