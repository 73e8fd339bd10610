// A name made from a server's or an agent's words stays one harmless path segment.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { safeFileName } from '../../../../src/commands/manage/fileNames';

describe('safeFileName', () => {
  const cases: [string | null, string][] = [
    ['Fix the login bug', 'Fix the login bug'],
    ['../../etc/passwd', 'etc passwd'],
    ['..', 'fallback'],
    ['...', 'fallback'],
    ['a\\b/c:d*e?f"g<h>i|j', 'a b c d e f g h i j'],
    ['CON', 'fallback'],
    ['lpt1.txt', 'fallback'],
    ['line\nbreak\u0000nul\u202eevil', 'line break nul evil'],
    ['  trailing dots...  ', 'trailing dots'],
    [null, 'fallback'],
    ['', 'fallback'],
    ['é'.repeat(200), 'é'.repeat(80)],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)?.slice(0, 40)} → ${JSON.stringify(expected).slice(0, 40)}`, () => {
      const name = safeFileName(text, 'fallback');
      assert.equal(name, expected);
      assert.equal(path.basename(name), name, 'one segment');
    });
  }
});
