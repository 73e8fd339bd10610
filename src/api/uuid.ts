/**
 * The server emits UUIDs as 32 dashless hex characters but accepts both forms, and other clients
 * (the web UI, hosted deployments) may hand us dashed ones: compare only normalised values.
 */
export function normalizeUuid(value: string): string {
  return value.replace(/-/g, '').toLowerCase();
}

export function sameUuid(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  return normalizeUuid(a) === normalizeUuid(b);
}
