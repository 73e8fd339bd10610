// Identifier formats of the real server: UUIDs are emitted as 32 lowercase hex chars (OpenHandsUUID),
// Docker sandbox ids are `oh-agent-server-<base62>`.
import type { Prng } from './prng';

export const SANDBOX_ID_PREFIX = 'oh-agent-server-';

export class IdFactory {
  constructor(private readonly random: Prng) {}

  /** A version-4 shaped UUID in dashless hex form. */
  uuidHex(): string {
    const raw = this.random.hex(32);
    const variant = '89ab'.charAt(this.random.int(0, 3));
    return `${raw.slice(0, 12)}4${raw.slice(13, 16)}${variant}${raw.slice(17)}`;
  }

  sandboxId(): string {
    return SANDBOX_ID_PREFIX + this.random.base62(22);
  }

  sessionApiKey(): string {
    return this.random.base62(43);
  }
}

/** Dashed UUID form, for tests and seeds that want to exercise the "input accepts both" rule. */
export function dashedUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
