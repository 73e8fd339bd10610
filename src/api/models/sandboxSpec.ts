import * as z from 'zod/mini';
import { isoDateTime, nullable, pageOf } from './common';

export const SandboxSpecInfoSchema = z.looseObject({
  /** The image reference, e.g. `ghcr.io/openhands/agent-server:4e2ecd8-python`. */
  id: z.string(),
  command: nullable(z.array(z.string())),
  created_at: nullable(isoDateTime),
  initial_env: z._default(z.record(z.string(), z.string()), {}),
  working_dir: z._default(z.string(), '/home/openhands/workspace'),
});
export type SandboxSpecInfo = z.infer<typeof SandboxSpecInfoSchema>;

export const SandboxSpecPageSchema = pageOf(SandboxSpecInfoSchema);
export type SandboxSpecPage = z.infer<typeof SandboxSpecPageSchema>;
