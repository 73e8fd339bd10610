/**
 * What `POST /api/bash/execute_bash_command` answers (agent server 1.34.0, `bash_router.py`,
 * `models.py` `BashOutput`): the last piece of the command's output, with its exit code. The server
 * runs the command with `/bin/sh -c` in `cwd`, kills it after `timeout` seconds (exit code -1), and
 * splits output past 1 MiB characters into earlier pieces this reply does not carry.
 */
import * as z from 'zod/mini';
import '../../zodLocale';
import { nullable } from '../models/common';

export const BashOutputSchema = z.object({
  command_id: z.string(),
  order: z._default(z.number(), 0),
  /** -1 when the command ran out of time or could not start; null (not seen) while it runs. */
  exit_code: nullable(z.number()),
  stdout: nullable(z.string()),
  stderr: nullable(z.string()),
});
export type BashOutput = z.infer<typeof BashOutputSchema>;

/** The request body (`ExecuteBashRequest`). */
export interface BashCommandRequest {
  command: string;
  /** Where it runs; relative paths resolve against the agent server's own folder. Its folder when unset. */
  cwd?: string;
  /** Seconds; the server's default is 300. */
  timeout?: number;
}

/** The server's own cap on one piece of output (`MAX_CONTENT_CHAR_LENGTH`): a longer output was split. */
export const BASH_OUTPUT_PIECE_CHARS = 1024 * 1024;
