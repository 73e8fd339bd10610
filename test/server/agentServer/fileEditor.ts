// The scripted agent's file_editor calls, carried out on the sandbox directory (openhands-tools
// 1.34.0 file_editor): `create` writes `file_text` (an error observation when the file exists),
// `str_replace` replaces the first `old_str` in the file. A file the script edits but the workspace
// does not hold yet is taken to hold the script's "before" text, as the observation always said.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { objectField, stringField, textContent, wireModel, type AgentEvent } from './events';
import { fileBefore } from './scenario';
import { fileCreateObservation, fileEditorObservation } from './toolCalls';

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/**
 * The observation of a create/str_replace on a file inside `sandboxDir`, after doing it; null for
 * any other action or path (the caller scripts those without touching the disk).
 */
export function performFileEdit(action: AgentEvent, sandboxDir: string): Record<string, unknown> | null {
  if (stringField(action, 'tool_name') !== 'file_editor') return null;
  const payload = objectField(action, 'action');
  const file = stringField(payload, 'path');
  if (!file || !path.isAbsolute(file)) return null;
  const target = path.resolve(file);
  if (!target.startsWith(`${sandboxDir}${path.sep}`)) return null;
  switch (stringField(payload, 'command')) {
    case 'create': {
      if (existsSync(target)) {
        return wireModel('FileEditorObservation', {
          content: [
            textContent(
              `Invalid \`path\` parameter: ${file}. File already exists at: ${file}. Cannot overwrite files using command \`create\`.`,
            ),
          ],
          is_error: true,
          command: 'create',
          prev_exist: true,
        });
      }
      const text = stringField(payload, 'file_text') ?? '';
      write(target, text);
      return fileCreateObservation(file, text);
    }
    case 'str_replace': {
      const oldStr = stringField(payload, 'old_str') ?? '';
      const newStr = stringField(payload, 'new_str') ?? '';
      const current = readText(target);
      const before = current !== null && current.includes(oldStr) ? current : fileBefore(file, oldStr);
      const after = before.replace(oldStr, () => newStr);
      write(target, after);
      return fileEditorObservation(file, before, after);
    }
    default:
      return null;
  }
}
