// Batch-get and page limits of openhands-ai 1.11.0 (checked against the real server by test:real):
// - conversations: 100 ids or more → 400 `{"detail":"Too many ids requested. Maximum is 99."}`, and
//   ids are parsed by hand: one that is not a UUID → 400 `Invalid UUID format for ids: ['…']`;
// - sandboxes and start tasks: no limit on the number of ids;
// - specs: more than 100 → 400 `Cannot request more than 100 sandbox specs at once, got N`;
// - `limit` is `le=100`, enforced: a 422 `less_than_equal` above 100 (older servers answered 500).

export const MAX_CONVERSATION_BATCH_IDS_EXCLUSIVE = 100;
export const MAX_SPEC_BATCH_IDS = 100;
export const MAX_PAGE_LIMIT = 100;

/** Python's `repr()` of a list of strings, as FastAPI error details print it. */
export function pythonListRepr(values: readonly string[]): string {
  return `[${values.map((v) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}]`;
}
