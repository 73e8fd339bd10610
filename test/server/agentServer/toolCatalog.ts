// What the default app-server agent carries: the tool definitions a SystemPromptEvent lists (browser
// tools filtered out, as AS/event_compat.py does on the wire), the system prompt, and the `agent`
// object of ConversationInfo/full_state. Built once: they are large and never change.

interface ToolDefinition {
  description: string;
  action_type: string;
  observation_type: string;
  annotations: Record<string, unknown>;
  kind: string;
  title: string;
}

const TERMINAL_DESCRIPTION = `Execute a bash command in the terminal within a persistent shell session.

### Command Execution
* One command at a time: You can only execute one bash command at a time. If you need to run multiple commands sequentially, use \`&&\` or \`;\` to chain them together.
* Persistent session: Commands execute in a persistent shell session where environment variables, virtual environments, and working directory persist between commands.
* Soft timeout: Commands have a soft timeout of 10 seconds, once that's reached, you have the option to continue or interrupt the command (see section below for details)
* Shell options: Do NOT use \`set -e\`, \`set -eu\`, or \`set -euo pipefail\` in shell scripts or commands in this environment. The runtime may not support them and can cause unusable shell sessions.

### Long-running Commands
* For commands that may run indefinitely, run them in the background and redirect output to a file, e.g. \`python3 app.py > server.log 2>&1 &\`.
* For commands that may run for a long time (e.g. installation or testing commands), or commands that run for a fixed amount of time (e.g. sleep), you should set the "timeout" parameter of your function call to an appropriate value.
* If a bash command returns exit code \`-1\`, this means the process hit the soft timeout and is not yet finished. By setting \`is_input\` to \`true\`, you can:
  - Send empty \`command\` to retrieve additional logs
  - Send text (set \`command\` to the text) to STDIN of the running process
  - Send control commands like \`C-c\` (Ctrl+C), \`C-d\` (Ctrl+D), or \`C-z\` (Ctrl+Z) to interrupt the process
  - If you do C-c, you can re-start the process with a longer "timeout" parameter to let it run to completion

### Best Practices
* Directory verification: Before creating new directories or files, first verify the parent directory exists and is the correct location.
* Directory management: Try to maintain working directory by using absolute paths and avoiding excessive use of \`cd\`.

### Output Handling
* Output truncation: If the output exceeds a maximum length, it will be truncated before being returned.

### Terminal Reset
* Terminal reset: If the terminal becomes unresponsive, you can set the "reset" parameter to \`true\` to create a new terminal session. This will terminate the current session and start fresh.
* Warning: Resetting the terminal will lose all previously set environment variables, working directory changes, and any running processes. Use this only when the terminal stops responding to commands.`;

const FILE_EDITOR_DESCRIPTION = `Custom editing tool for viewing, creating and editing files in plain-text format
* State is persistent across command calls and discussions with the user
* If \`path\` is a text file, \`view\` displays the result of applying \`cat -n\`. If \`path\` is a directory, \`view\` lists non-hidden files and directories up to 2 levels deep
* The following binary file extensions can be viewed in Markdown format: [".xlsx", ".pptx", ".wav", ".mp3", ".m4a", ".flac", ".pdf", ".docx"]. IT DOES NOT HANDLE IMAGES.
* The \`create\` command cannot be used if the specified \`path\` already exists as a file
* If a \`command\` generates a long output, it will be truncated and marked with \`<response clipped>\`
* The \`undo_edit\` command will revert the last edit made to the file at \`path\`
* This tool can be used for creating and editing files in plain-text format.

Before using this tool:
1. Use the view tool to understand the file's contents and context
2. Verify the directory path is correct (only applicable when creating new files):
   - Use the view tool to verify the parent directory exists and is the correct location

When making edits:
   - Ensure the edit results in idiomatic, correct code
   - Do not leave the code in a broken state
   - Always use absolute file paths (starting with /)

CRITICAL REQUIREMENTS FOR USING THIS TOOL:

1. EXACT MATCHING: The \`old_str\` parameter must match EXACTLY one or more consecutive lines from the file, including all whitespace and indentation. The tool will fail if \`old_str\` matches multiple locations or doesn't match exactly with the file content.

2. UNIQUENESS: The \`old_str\` must uniquely identify a single instance in the file:
   - Include sufficient context before and after the change point (3-5 lines recommended)
   - If not unique, the replacement will not be performed

3. REPLACEMENT: The \`new_str\` parameter should contain the edited lines that replace the \`old_str\`. Both strings must be different.

Remember: when making multiple file edits in a row to the same file, you should prefer to send all edits in a single message with multiple calls to this tool, rather than multiple messages with a single call each.`;

const TASK_TRACKER_DESCRIPTION = `This tool provides structured task management capabilities for development workflows.
It enables systematic tracking of work items, progress monitoring, and efficient
organization of complex development activities.

The tool maintains visibility into project status and helps communicate
progress effectively to users.

## Application Guidelines

Utilize this tool in the following situations:

1. Multi-phase development work - When projects involve multiple sequential or
   parallel activities
2. Complex implementation tasks - Work requiring systematic planning and
   coordination across multiple components
3. Explicit user request for task organization - When users specifically ask
   for structured task management
4. Multiple concurrent requirements - When users present several work items
   that need coordination
5. Project initiation - Capture and organize user requirements at project start
6. Work commencement - Update task status to in_progress before beginning
   implementation. Maintain focus by limiting active work to one task
7. Task completion - Update status to done and identify any additional work
   that emerged during implementation`;

function annotations(title: string, readOnly: boolean, destructive: boolean): Record<string, unknown> {
  return {
    title,
    readOnlyHint: readOnly,
    destructiveHint: destructive,
    idempotentHint: false,
    openWorldHint: !readOnly,
  };
}

const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    description: TERMINAL_DESCRIPTION,
    action_type: 'TerminalAction',
    observation_type: 'TerminalObservation',
    annotations: annotations('terminal', false, true),
    kind: 'TerminalTool',
    title: 'terminal',
  },
  {
    description: FILE_EDITOR_DESCRIPTION,
    action_type: 'FileEditorAction',
    observation_type: 'FileEditorObservation',
    annotations: annotations('file_editor', false, true),
    kind: 'FileEditorTool',
    title: 'file_editor',
  },
  {
    description: TASK_TRACKER_DESCRIPTION,
    action_type: 'TaskTrackerAction',
    observation_type: 'TaskTrackerObservation',
    annotations: annotations('task_tracker', false, false),
    kind: 'TaskTrackerTool',
    title: 'task_tracker',
  },
  {
    description:
      "Signals the completion of the current task or conversation.\n\nUse this tool when:\n- You have successfully completed the user's requested task\n- You cannot proceed further due to technical limitations or missing information\n\nThe message should include:\n- A clear summary of actions taken and their results\n- Any next steps for the user\n- Explanation if you're unable to complete the task\n- Any follow-up questions if more information is needed",
    action_type: 'FinishAction',
    observation_type: 'FinishObservation',
    annotations: annotations('finish', true, false),
    kind: 'FinishTool',
    title: 'finish',
  },
  {
    description:
      'Use the tool to think about something. It will not obtain new information or make any changes to the repository, but just log the thought. Use it when complex reasoning or brainstorming is needed.\n\nCommon use cases:\n1. When exploring a repository and discovering the source of a bug, call this tool to brainstorm several unique ways of fixing the bug, and assess which change(s) are likely to be simplest and most effective.\n2. After receiving test results, use this tool to brainstorm ways to fix failing tests.\n3. When planning a complex refactoring, use this tool to outline different approaches and their tradeoffs.\n4. When designing a new feature, use this tool to think through architecture decisions and implementation details.\n5. When debugging a complex issue, use this tool to organize your thoughts and hypotheses.\n\nThe tool simply logs your thought process for better transparency and does not execute any code or make changes.',
    action_type: 'ThinkAction',
    observation_type: 'ThinkObservation',
    annotations: annotations('think', true, false),
    kind: 'ThinkTool',
    title: 'think',
  },
  {
    description:
      'Switch the language model used for the rest of this conversation to one of the configured LLM profiles. Use it only when the user asks for a different model.',
    action_type: 'SwitchLLMAction',
    observation_type: 'SwitchLLMObservation',
    annotations: annotations('switch_llm', false, false),
    kind: 'SwitchLLMTool',
    title: 'switch_llm',
  },
];

const SYSTEM_PROMPT_SECTIONS = [
  'You are OpenHands agent, a helpful AI assistant that can interact with a computer to solve tasks.',
  '<ROLE>\nYour primary role is to assist users by executing commands, modifying code, and solving technical problems effectively. You should be thorough, methodical, and prioritize quality over speed.\n* If the user asks a question, like "why is X happening", don\'t try to fix the problem. Just give an answer to the question.\n</ROLE>',
  '<EFFICIENCY>\n* Each action you take is somewhat expensive. Wherever possible, combine multiple actions into a single action, e.g. combine multiple bash commands into one, using sed and grep to edit/view multiple files at once.\n* When exploring the codebase, use efficient tools like find, grep, and git commands with appropriate filters to minimize unnecessary operations.\n</EFFICIENCY>',
  "<FILE_SYSTEM_GUIDELINES>\n* When a user provides a file path, do NOT assume it's relative to the current working directory. First explore the file system to locate the file before working on it.\n* If asked to edit a file, edit the file directly, rather than creating a new file with a different filename.\n* For global search-and-replace operations, consider using `sed` instead of opening file editors multiple times.\n* NEVER create multiple versions of the same file with different suffixes (e.g., file_test.py, file_fix.py, file_simple.py).\n</FILE_SYSTEM_GUIDELINES>",
  '<CODE_QUALITY>\n* Write clean, efficient code with minimal comments. Avoid redundancy in comments: Do not repeat information that can be easily inferred from the code itself.\n* When implementing solutions, focus on making the minimal changes needed to solve the problem.\n* Before implementing any changes, first thoroughly understand the codebase through exploration.\n* If you are adding a lot of code to a function or file, consider splitting the function or file into smaller pieces when appropriate.\n</CODE_QUALITY>',
  '<VERSION_CONTROL>\n* If there are existing git user credentials already configured, use them and add Co-authored-by: openhands <openhands@all-hands.dev> to any commits messages you make.\n* Exercise caution with git operations. Do NOT make potentially dangerous changes (e.g., pushing to main, deleting repositories) unless explicitly asked to do so.\n* When committing changes, use `git status` to see all modified files, and stage all files necessary for the commit.\n</VERSION_CONTROL>',
  '<SECURITY_RISK_ASSESSMENT>\n# Security Risk Policy\nWhen using tools that support the security_risk parameter, assess the safety risk of your actions:\n- **LOW**: Read-only actions inside sandbox.\n- **MEDIUM**: Container-scoped edits and installs.\n- **HIGH**: Data exfiltration, privilege breaks, or destructive host actions.\n</SECURITY_RISK_ASSESSMENT>',
  "<TROUBLESHOOTING>\n* If you've made repeated attempts to solve a problem but tests still fail or the user reports it's still broken:\n  1. Step back and reflect on 5-7 different possible sources of the problem\n  2. Assess the likelihood of each possible cause\n  3. Methodically address the most likely causes, starting with the highest probability\n  4. Document your reasoning process\n</TROUBLESHOOTING>",
];

export const SYSTEM_PROMPT = SYSTEM_PROMPT_SECTIONS.join('\n\n');

export function systemPromptTools(): Record<string, unknown>[] {
  return TOOL_DEFINITIONS.map((tool) => ({ ...tool, annotations: { ...tool.annotations } }));
}

const SKILLS = [
  ['github', 'Interact with GitHub repositories, pull requests and issues with the GITHUB_TOKEN.'],
  ['gitlab', 'Interact with GitLab repositories, merge requests and issues with the GITLAB_TOKEN.'],
  ['docker', 'Build and run containers; prefer docker compose for multi-service setups.'],
  ['npm', 'Install JavaScript dependencies with npm ci when a lock file exists.'],
  ['security', 'Never print secrets; redact tokens in command output and commit messages.'],
] as const;

/**
 * The `agent` object of ConversationInfo, full_state and an `agent` state update (the app server's
 * default agent, keys redacted); `usageId` is the LLM's registry key (`agent` until a profile switch).
 */
export function agentObject(model: string, usageId = 'agent'): Record<string, unknown> {
  const llm = {
    model,
    api_key: '**********',
    openrouter_site_url: 'https://docs.all-hands.dev/',
    openrouter_app_name: 'OpenHands',
    num_retries: 5,
    retry_multiplier: 8,
    retry_min_wait: 8,
    retry_max_wait: 64,
    max_message_chars: 30000,
    temperature: 0,
    top_p: 1,
    stream: true,
    drop_params: true,
    modify_params: true,
    disable_stop_word: false,
    caching_prompt: true,
    log_completions: false,
    native_tool_calling: true,
    reasoning_effort: 'high',
    enable_encrypted_reasoning: false,
    extended_thinking_budget: 200000,
    usage_id: usageId,
    litellm_extra_body: {},
  };
  return {
    llm,
    tools: [
      { name: 'terminal', params: {} },
      { name: 'file_editor', params: {} },
      { name: 'task_tracker', params: {} },
      { name: 'browser_tool_set', params: {} },
    ],
    mcp_config: {
      mcpServers: { fetch: { command: 'uvx', args: ['mcp-server-fetch'], env: {}, transport: 'stdio' } },
    },
    include_default_tools: ['FinishTool', 'ThinkTool'],
    agent_context: {
      skills: SKILLS.map(([name, content]) => ({
        name,
        content: `${content}\n\n${TASK_TRACKER_DESCRIPTION}`,
        trigger: { type: 'keyword', keywords: [name] },
        source: `/home/openhands/.openhands/skills/${name}.md`,
        kind: 'Skill',
      })),
      system_message_suffix: 'You are working in a sandboxed Docker container.',
      secrets: {},
    },
    system_prompt_filename: 'system_prompt.j2',
    security_policy_filename: 'security_policy.j2',
    system_prompt_kwargs: { cli_mode: false },
    condenser: {
      llm: { ...llm, usage_id: 'condenser' },
      max_size: 240,
      keep_first: 2,
      minimum_progress: 0.1,
      hard_context_reset_max_retries: 5,
      hard_context_reset_context_scaling: 0.8,
      kind: 'LLMSummarizingCondenser',
    },
    kind: 'Agent',
  };
}
