// The observation the double produces for an action, whether its own run made the action or it was
// seeded waiting for confirmation: the output is derived from the action itself.
import { textContent, objectField, stringField, wireModel, type AgentEvent } from './events';
import { fileBefore, terminalResult } from './scenario';
import { fileEditorObservation, finishObservation, terminalObservation, thinkObservation } from './toolCalls';

export function observationFor(
  action: AgentEvent,
  workingDir: string,
  conversationHex: string,
): Record<string, unknown> {
  const payload = objectField(action, 'action');
  switch (stringField(action, 'tool_name')) {
    case 'think':
      return thinkObservation();
    case 'terminal': {
      const command = stringField(payload, 'command') ?? '';
      const result = terminalResult(command);
      return terminalObservation(command, result.output, result.exitCode, workingDir, conversationHex);
    }
    case 'file_editor': {
      const path = stringField(payload, 'path') ?? `${workingDir}/unknown.txt`;
      const oldStr = stringField(payload, 'old_str') ?? '';
      const before = fileBefore(path, oldStr);
      return fileEditorObservation(
        path,
        before,
        before.replace(oldStr, stringField(payload, 'new_str') ?? ''),
      );
    }
    case 'finish':
      return finishObservation(stringField(payload, 'message') ?? '');
    default:
      return wireModel(`${String(payload?.['kind'] ?? 'Tool').replace(/Action$/, '')}Observation`, {
        content: [textContent('Done.')],
        is_error: false,
      });
  }
}
