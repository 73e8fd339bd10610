// The OpenHands output channel: one line per request at the chosen level, repeated polls out of sight,
// the server's words kept whole on one line, bodies only when asked for.
import assert from 'node:assert/strict';
import type { RequestLogEntry } from '../../../src/api';
import { Log } from '../../../src/core/log';
import { windowRecord } from '../../shared/vscodeStandIn/standIn';

function entry(extra: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    method: 'GET',
    path: '/api/v1/sandboxes/search',
    status: 200,
    durationMs: 12,
    attempt: 1,
    ...extra,
  };
}

describe('Log: the output channel', () => {
  it('writes a request per line, a failure as a warning with the server’s words escaped, a repeated poll as debug', () => {
    const log = new Log();
    const [channel] = windowRecord.logChannels;
    log.request(entry());
    log.request(entry({ repeated: true }));
    log.request(
      entry({ status: undefined, errorKind: 'network', attempt: 2, serverText: 'bad\ngateway "x"' }),
    );
    assert.deepEqual(channel?.lines, [
      'info: GET /api/v1/sandboxes/search → 200 12 ms',
      'debug: GET /api/v1/sandboxes/search → 200 12 ms',
      'warn: GET /api/v1/sandboxes/search → network 12 ms (attempt 2)',
      'warn:   the server said: "bad\\ngateway \\"x\\""',
    ]);
    assert.equal(channel?.name, 'OpenHands');
  });

  it('writes nothing of requests when off, and their bodies only at `bodies`', () => {
    const log = new Log();
    const [channel] = windowRecord.logChannels;
    const withBodies = entry({ requestBody: { a: 1 }, responseBody: { b: 2 } });
    log.httpLevel = 'off';
    log.request(withBodies);
    assert.deepEqual(channel?.lines, []);
    log.httpLevel = 'requests';
    log.request(withBodies);
    assert.equal(channel?.lines.length, 1);
    log.httpLevel = 'bodies';
    log.request(withBodies);
    assert.equal(channel?.lines.at(-1), 'info: {"request":{"a":1},"response":{"b":2}}');
  });
});
