// The tool calls the scripted agent makes and the observations they produce, in the shapes of
// openhands-tools 1.34.0 (TerminalAction/Observation, FileEditor…, Think…, Finish…).
import { textContent, wireModel } from './events';
import type { SecurityRisk } from './records';
import { persistenceDir } from './workspaces';

export interface ToolCall {
  toolName: string;
  /** `null` for a call whose arguments did not validate (an ActionEvent without `action`). */
  action: Record<string, unknown> | null;
  /** What the LLM sent; `tool_call.arguments` is its JSON, the summary omits `security_risk`. */
  arguments: Record<string, unknown>;
  securityRisk: SecurityRisk;
}

export function thinkCall(thought: string): ToolCall {
  return {
    toolName: 'think',
    action: wireModel('ThinkAction', { thought }),
    arguments: { thought },
    securityRisk: 'UNKNOWN',
  };
}

export function terminalCall(command: string, securityRisk: SecurityRisk): ToolCall {
  return {
    toolName: 'terminal',
    action: wireModel('TerminalAction', { command, is_input: false, reset: false }),
    arguments: { command, security_risk: securityRisk },
    securityRisk,
  };
}

export function fileEditCall(path: string, oldStr: string, newStr: string): ToolCall {
  return {
    toolName: 'file_editor',
    action: wireModel('FileEditorAction', { command: 'str_replace', path, old_str: oldStr, new_str: newStr }),
    arguments: { command: 'str_replace', path, old_str: oldStr, new_str: newStr, security_risk: 'MEDIUM' },
    securityRisk: 'MEDIUM',
  };
}

/** A call the SDK could not validate: the ActionEvent has no `action`, an AgentErrorEvent follows. */
export function invalidFileEditCall(path: string): ToolCall {
  return {
    toolName: 'file_editor',
    action: null,
    arguments: { command: 'str_replace', path, security_risk: 'MEDIUM' },
    securityRisk: 'MEDIUM',
  };
}

export function finishCall(message: string): ToolCall {
  return {
    toolName: 'finish',
    action: wireModel('FinishAction', { message }),
    arguments: { message },
    securityRisk: 'UNKNOWN',
  };
}

export function thinkObservation(): Record<string, unknown> {
  return wireModel('ThinkObservation', {
    content: [textContent('Your thought has been logged.')],
    is_error: false,
  });
}

export function terminalObservation(
  command: string,
  output: string,
  exitCode: number,
  workingDir: string,
  conversationHex?: string,
): Record<string, unknown> {
  return wireModel('TerminalObservation', {
    content: [textContent(output)],
    is_error: false,
    command,
    exit_code: exitCode,
    timeout: false,
    metadata: {
      exit_code: exitCode,
      pid: -1,
      username: 'openhands',
      hostname: 'sandbox',
      working_dir: workingDir,
      py_interpreter_path: '/openhands/micromamba/envs/openhands/bin/python',
      prefix: '',
      suffix: `\n[The command completed with exit code ${exitCode}.]`,
    },
    // Relative to the agent server's cwd, as a process sandbox reports it.
    full_output_save_dir: conversationHex ? `${persistenceDir(conversationHex)}/observations` : null,
  });
}

export function fileEditorObservation(
  path: string,
  oldContent: string,
  newContent: string,
): Record<string, unknown> {
  return wireModel('FileEditorObservation', {
    content: [
      textContent(
        `The file ${path} has been edited. Here's the result of running \`cat -n\` on a snippet of ${path}:\n` +
          newContent
            .split('\n')
            .slice(0, 8)
            .map((line, index) => `${String(index + 1).padStart(6)}\t${line}`)
            .join('\n') +
          '\nReview the changes and make sure they are as expected. Edit the file again if necessary.',
      ),
    ],
    is_error: false,
    command: 'str_replace',
    path,
    prev_exist: true,
    old_content: oldContent,
    new_content: newContent,
  });
}

/** A `create` that wrote a new file (no `old_content`). */
export function fileCreateObservation(path: string, text: string): Record<string, unknown> {
  return wireModel('FileEditorObservation', {
    content: [textContent(`File created successfully at: ${path}`)],
    is_error: false,
    command: 'create',
    path,
    prev_exist: false,
    new_content: text,
  });
}

export function finishObservation(message: string): Record<string, unknown> {
  return wireModel('FinishObservation', { content: [textContent(message)], is_error: false });
}
