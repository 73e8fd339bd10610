// Starlette's FileResponse (1.3.1) as the agent server's file routes send it: the bytes with
// `accept-ranges`, `content-disposition` (RFC 5987 form for a name that needs quoting), and the
// `last-modified`/`etag` pair derived from the file's mtime and size. Range requests are not emulated.
import { createHash } from 'node:crypto';
import type { Reply } from './http';
import { pyTimeString, pyUrlQuote } from './agentServer/pyText';

export interface FileFacts {
  /** `os.stat().st_mtime_ns`. */
  mtimeNs: bigint;
  size: number;
}

/** `st_mtime` as CPython computes it: seconds + nanoseconds * 1e-9, in floating point. */
function stMtime(mtimeNs: bigint): number {
  const seconds = mtimeNs / 1_000_000_000n;
  const nanos = mtimeNs % 1_000_000_000n;
  return Number(seconds) + Number(nanos) * 1e-9;
}

export function fileResponse(
  body: Buffer,
  filename: string,
  mediaType: string,
  facts: FileFacts,
  headers: Record<string, string> = {},
): Reply {
  const quoted = pyUrlQuote(filename);
  const disposition =
    quoted === filename ? `attachment; filename="${filename}"` : `attachment; filename*=utf-8''${quoted}`;
  const mtime = stMtime(facts.mtimeNs);
  const etag = createHash('md5')
    .update(`${pyTimeString(mtime)}-${facts.size}`)
    .digest('hex');
  return {
    kind: 'bytes',
    status: 200,
    // Starlette adds the charset to every text/* media type.
    contentType: mediaType.startsWith('text/') ? `${mediaType}; charset=utf-8` : mediaType,
    body,
    headers: {
      ...headers,
      'accept-ranges': 'bytes',
      'content-disposition': disposition,
      'last-modified': new Date(Math.floor(mtime) * 1000).toUTCString(),
      etag: `"${etag}"`,
    },
  };
}
