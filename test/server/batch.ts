// Batch-get limits: conversations, start tasks and sandboxes `assert len(ids) < 100`; specs allow
// up to 100. A failed assert is an uncaught exception, i.e. a plain-text 500.

export const MAX_BATCH_IDS_EXCLUSIVE = 100;
export const MAX_SPEC_BATCH_IDS = 100;
/** `lte=100` on `limit` is not enforced by FastAPI, but `assert limit <= 100` is. */
export const MAX_PAGE_LIMIT = 100;
