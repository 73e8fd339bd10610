// Python's strict UTF-8 decoding, error message included: `subprocess.run(..., text=True)` decodes
// git's whole output this way, so a binary `git show` raises UnicodeDecodeError, which the agent
// server leaves uncaught (a 500 whose `exception` is this message).

export class PyUnicodeDecodeError extends Error {}

const isContinuation = (byte: number | undefined): boolean =>
  byte !== undefined && byte >= 0x80 && byte <= 0xbf;

interface DecodeFault {
  start: number;
  /** Exclusive. */
  end: number;
  reason: string;
}

/**
 * CPython's `utf8_decode` (Objects/stringlib/codecs.h): the first bad sequence, as it reports it. A
 * sequence cut off by the end of the data is "unexpected end of data" up to the end.
 */
function firstFault(bytes: Uint8Array): DecodeFault | null {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    if (lead < 0x80) {
      index++;
      continue;
    }
    const remaining = bytes.length - index;
    const second = bytes[index + 1];
    const third = bytes[index + 2];
    const invalidContinuation = (valid: number): DecodeFault => ({
      start: index,
      end: index + valid,
      reason: 'invalid continuation byte',
    });
    const endOfData: DecodeFault = { start: index, end: bytes.length, reason: 'unexpected end of data' };
    if (lead < 0xc2 || lead >= 0xf5) return { start: index, end: index + 1, reason: 'invalid start byte' };
    if (lead < 0xe0) {
      if (remaining < 2) return endOfData;
      if (!isContinuation(second)) return invalidContinuation(1);
      index += 2;
      continue;
    }
    // E0 needs A0..BF next (no overlong forms), ED needs 80..9F (no surrogates); F0/F4 likewise.
    const secondOutOfRange = (value: number): boolean =>
      lead < 0xf0
        ? value < 0xa0
          ? lead === 0xe0
          : lead === 0xed
        : value < 0x90
          ? lead === 0xf0
          : lead === 0xf4;
    const needed = lead < 0xf0 ? 3 : 4;
    if (remaining < 2) return endOfData;
    if (!isContinuation(second) || secondOutOfRange(second ?? 0)) return invalidContinuation(1);
    if (remaining < 3) return endOfData;
    if (!isContinuation(third)) return invalidContinuation(2);
    if (needed === 4) {
      if (remaining < 4) return endOfData;
      if (!isContinuation(bytes[index + 3])) return invalidContinuation(3);
    }
    index += needed;
  }
  return null;
}

/** `bytes.decode("utf-8")`: the text, or PyUnicodeDecodeError with Python's message. */
export function decodeUtf8Strictly(bytes: Uint8Array): string {
  const fault = firstFault(bytes);
  if (fault) {
    const where =
      fault.end - fault.start === 1
        ? `byte 0x${(bytes[fault.start] ?? 0).toString(16).padStart(2, '0')} in position ${fault.start}`
        : `bytes in position ${fault.start}-${fault.end - 1}`;
    throw new PyUnicodeDecodeError(`'utf-8' codec can't decode ${where}: ${fault.reason}`);
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}
