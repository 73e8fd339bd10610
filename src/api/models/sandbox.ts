import * as z from 'zod/mini';
import { isoDateTime, nullable, openEnum, pageOf } from './common';

export const SANDBOX_STATUSES = ['STARTING', 'RUNNING', 'PAUSED', 'ERROR', 'MISSING'] as const;
export const SandboxStatusSchema = openEnum(SANDBOX_STATUSES);
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>;

export const EXPOSED_URL_NAMES = ['AGENT_SERVER', 'VSCODE', 'WORKER_1', 'WORKER_2'] as const;

export const ExposedUrlSchema = z.looseObject({
  name: openEnum(EXPOSED_URL_NAMES),
  url: z.string(),
  /** Hosted API only. */
  port: z.optional(z.number()),
});
export type ExposedUrl = z.infer<typeof ExposedUrlSchema>;

export const SandboxInfoSchema = z.looseObject({
  id: z.string(),
  created_by_user_id: nullable(z.string()),
  sandbox_spec_id: z._default(z.string(), ''),
  status: SandboxStatusSchema,
  /** Set only while RUNNING. */
  session_api_key: nullable(z.string()),
  /** `null` or `[]` when not running. */
  exposed_urls: z._default(z.nullable(z.array(ExposedUrlSchema)), []),
  created_at: nullable(isoDateTime),
  /** Hosted API only: why the sandbox is in its status. */
  status_detail: nullable(z.string()),
});
export type SandboxInfo = z.infer<typeof SandboxInfoSchema>;

export const SandboxPageSchema = pageOf(SandboxInfoSchema);
export type SandboxPage = z.infer<typeof SandboxPageSchema>;
