// The server as the views' headers name it: short enough to read beside the title and its actions.
import assert from 'node:assert/strict';
import { serverLabel } from '../../../src/views/serverLabel';

describe('serverLabel', () => {
  it('is the name the user gave, without the "OpenHands" the container already says', () => {
    assert.equal(serverLabel('Team', 'https://openhands.team.example:8443'), 'Team');
    assert.equal(serverLabel('This machine (:3001)', 'http://localhost:3001'), 'This machine (:3001)');
    assert.equal(serverLabel('OpenHands Staging', 'https://staging.example'), 'Staging');
    assert.equal(serverLabel('OpenHands', 'https://staging.example'), 'OpenHands');
  });

  it('calls Cloud "Cloud", and an unnamed server by its host, a loopback one "local" and its port', () => {
    assert.equal(serverLabel('OpenHands Cloud', 'https://app.all-hands.dev'), 'Cloud');
    assert.equal(serverLabel('127.0.0.1:40625', 'http://127.0.0.1:40625'), 'local:40625');
    assert.equal(serverLabel('localhost:3000', 'http://localhost:3000'), 'local:3000');
    assert.equal(serverLabel('[::1]:3000', 'http://[::1]:3000'), 'local:3000');
    assert.equal(serverLabel('www.openhands.example', 'https://www.openhands.example'), 'openhands.example');
    assert.equal(serverLabel('10.0.0.5:3000', 'http://10.0.0.5:3000'), '10.0.0.5:3000');
    // 127.0.0.1.nip.io is another machine, whatever it starts with
    assert.equal(serverLabel('127.0.0.1.nip.io', 'http://127.0.0.1.nip.io'), '127.0.0.1.nip.io');
  });
});
