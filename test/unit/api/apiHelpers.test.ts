import assert from 'node:assert/strict';
import { checkServerUrl, normalizeUuid, sameUuid } from '../../../src/api';
import { JsonArrayStreamParser } from '../../../src/api/jsonArrayStream';
import { buildQuery } from '../../../src/api/http/buildRequest';

describe('server URL check', () => {
  it('accepts http(s) URLs and drops the trailing slash', () => {
    assert.deepEqual(checkServerUrl(' http://localhost:3000/ '), { ok: true, url: 'http://localhost:3000' });
    assert.deepEqual(checkServerUrl('https://oh.example.com/base/'), {
      ok: true,
      url: 'https://oh.example.com/base',
    });
  });

  it('explains what is wrong', () => {
    const message = (input: string) => {
      const check = checkServerUrl(input);
      return check.ok ? '' : check.message;
    };
    assert.match(message(''), /empty/);
    assert.match(message('localhost:3000'), /http:\/\/ or https:\/\//);
    assert.match(message('ws://x'), /http:\/\/ or https:\/\//);
    assert.match(message('not a url'), /not a URL/);
    assert.match(message('http://h/?a=1'), /query/);
    assert.match(message('http://user:pw@h'), /credentials/);
  });
});

describe('query encoding', () => {
  it('repeats list parameters and encodes + in datetimes', () => {
    assert.equal(buildQuery({ ids: ['a', 'b'], limit: 5, x: undefined, y: null }), '?ids=a&ids=b&limit=5');
    assert.equal(
      buildQuery({ created_at__gte: '2025-01-01T00:00:00+02:00' }),
      '?created_at__gte=2025-01-01T00%3A00%3A00%2B02%3A00',
    );
    assert.equal(buildQuery({ t: new Date(Date.UTC(2025, 0, 2)) }), '?t=2025-01-02T00%3A00%3A00.000Z');
    assert.equal(buildQuery({}), '');
  });
});

describe('UUIDs', () => {
  it('compares dashed and dashless forms', () => {
    assert.equal(normalizeUuid('0F6A4A1C-9B6E-4B2F-8E0D-3C2B1A09F8E7'), '0f6a4a1c9b6e4b2f8e0d3c2b1a09f8e7');
    assert.ok(sameUuid('0f6a4a1c-9b6e-4b2f-8e0d-3c2b1a09f8e7', '0f6a4a1c9b6e4b2f8e0d3c2b1a09f8e7'));
    assert.ok(!sameUuid(null, null));
  });
});

describe('streamed JSON array parser', () => {
  it('yields elements as soon as they are complete, across chunk boundaries and inside strings', () => {
    const parser = new JsonArrayStreamParser();
    const text = '[\n{"a":1,"s":"x}]{\\"y"},\n{"b":[1,{"c":2}]}\n]';
    const got: unknown[] = [];
    for (let i = 0; i < text.length; i += 3) got.push(...parser.push(text.slice(i, i + 3)));
    assert.deepEqual(got, [{ a: 1, s: 'x}]{"y' }, { b: [1, { c: 2 }] }]);
  });
});
