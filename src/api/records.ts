/** A JSON object (not null, not an array): what a server's loosely typed field is read as. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
