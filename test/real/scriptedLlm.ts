// An OpenAI-compatible chat-completions server on loopback that answers from a script, so the real
// OpenHands agent loop runs with no model and no network.
//
// What the installed OpenHands (openhands-sdk 1.34.0, litellm 1.84.1) sends, read in its source:
// - native tool calls for every model name (`LLM.native_tool_calling` defaults to true; prompt-mocked
//   tool calls only when it is switched off), so the script answers with OpenAI `tool_calls`;
// - `stream: true` for conversations started by the app server (`_configure_llm` forces it), so
//   answers are streamed as `chat.completion.chunk` server-sent events ending in `data: [DONE]`;
//   non-streaming requests get one `chat.completion` object;
// - the Chat Completions API for model names outside the GPT-5/Codex family (those use Responses).
//
// The script (see `nextStep`), by what the request itself holds, so the server keeps no
// per-conversation state and any number of conversations can run at once:
// - the first user message: `think` → terminal `SCRIPTED_COMMAND` → file_editor create
//   `SCRIPTED_FILE` → finish `SCRIPTED_FINISH`, by the number of tool results so far;
// - every later user message (a follow-up): terminal `SCRIPTED_FOLLOW_UP_COMMAND` → finish
//   `SCRIPTED_FOLLOW_UP_FINISH`, by the number of tool results since that message;
// - a rejected action since the last user message (a tool result "Action rejected: …"):
//   finish `SCRIPTED_REJECTED_FINISH`;
// - while the last user message holds `SCRIPTED_SLOW`, every answer waits `SCRIPTED_SLOW_MS` first
//   (the model call stays in flight: a run that can be seen running, paused or interrupted).
// - a user message holding `SCRIPTED_CHANGES` (first or later): terminal `SCRIPTED_CHANGES_BASE_COMMAND`
//   (a base commit pushed to an `origin`, so the server's changes say UPDATED for the edited file) →
//   file_editor str_replace in `SCRIPTED_CHANGES_EDITED` → terminal `SCRIPTED_CHANGES_ADD_COMMAND`
//   (creates `SCRIPTED_CHANGES_ADDED`) → finish `SCRIPTED_CHANGES_FINISH`.
// - a user message holding `SCRIPTED_BROWSE` and a loopback URL (first or later): `browser_navigate` to
//   that URL → `browser_get_state` with a screenshot → finish `SCRIPTED_BROWSE_FINISH`;
// - a user message holding `SCRIPTED_LOOK` (an image beside it): finish `SCRIPTED_LOOK_FINISH` at once.
// - a user message holding `SCRIPTED_HANDOFF` and the working copy a hand-off names ("It is in your
//   working copy, <path>."): terminal: each file there with its blob hash →
//   file_editor str_replace of `SCRIPTED_HANDOFF_OLD` in `SCRIPTED_HANDOFF_EDITED` → finish
//   `SCRIPTED_HANDOFF_FINISH`.
// Every request's image parts (`image_url`, present only when the SDK thinks the model can see) are
// recorded by digest, and `GET <base>/scripted/requests` answers what was recorded (the client suite
// runs in another process than the one that started this server).
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The model name to store in the settings: `openai/` makes litellm call `<base_url>/chat/completions`. */
export const SCRIPTED_MODEL = 'openai/scripted-llm';
/** What the shell step runs; its output shows up in the conversation's events. */
export const SCRIPTED_COMMAND = 'echo scripted-llm-was-here && pwd';
export const SCRIPTED_FINISH = 'Done: the scripted LLM ran one command.';
/** The file the `file_editor` step creates in the sandbox's working folder (the shell step's `pwd`). */
export const SCRIPTED_FILE = 'scripted-notes.md';
export const SCRIPTED_FILE_TEXT = '# Notes\n\nwritten by the scripted LLM\n';
/** What the terminal step of a follow-up message runs. */
export const SCRIPTED_FOLLOW_UP_COMMAND = 'echo scripted-follow-up-was-here';
export const SCRIPTED_FOLLOW_UP_FINISH = 'Done: the scripted LLM ran the follow-up command.';
/** The finish after a rejected action. */
export const SCRIPTED_REJECTED_FINISH =
  'Understood: the action was rejected, so the scripted LLM stops here.';
/** A user message holding this makes every answer of its turn wait `SCRIPTED_SLOW_MS`. */
export const SCRIPTED_SLOW = '[scripted-llm: slow]';
export const SCRIPTED_SLOW_MS = 4000;

/** A user message holding this makes its turn the changes script (see the top of this file). */
export const SCRIPTED_CHANGES = '[scripted-llm: changes]';
/** The file the base commit holds and the agent then edits (`file_editor` str_replace). */
export const SCRIPTED_CHANGES_EDITED = 'changes-edited.md';
const CHANGES_BASE_LINE = 'the base line';
const CHANGES_EDITED_LINE = 'the base line, edited by the scripted LLM';
export const SCRIPTED_CHANGES_BASE_TEXT = `# Changes\n\n${CHANGES_BASE_LINE}\n`;
export const SCRIPTED_CHANGES_EDITED_TEXT = `# Changes\n\n${CHANGES_EDITED_LINE}\n`;
/** The file the agent creates with the terminal; it is in no commit. */
export const SCRIPTED_CHANGES_ADDED = 'changes-added.txt';
export const SCRIPTED_CHANGES_ADDED_TEXT = 'created by the scripted LLM\n';
/**
 * The base: the file above, and whatever earlier conversations of the sandbox left in its folder,
 * committed on the workspace's branch (the agent server's own files left out: its log and
 * `workspace/`) and pushed to a bare `origin` kept inside `.git` (outside the working tree, gone with
 * the sandbox). The server compares with `origin/<branch>` when it exists; without one it falls back
 * to the empty tree, where the committed file would read ADDED. No git identity is configured in a
 * sandbox (its HOME is empty): `-c`.
 */
export const SCRIPTED_CHANGES_BASE_COMMAND = [
  `printf '# Changes\\n\\n${CHANGES_BASE_LINE}\\n' > ${SCRIPTED_CHANGES_EDITED}`,
  'git init -q --bare .git/scripted-origin.git',
  // a second changes turn in the same sandbox finds the remote there already
  '{ git remote add origin "$PWD/.git/scripted-origin.git" || git remote set-url origin "$PWD/.git/scripted-origin.git"; }',
  "git add -A -- . ':(exclude).openhands-agent-server.log' ':(exclude)workspace'",
  "git -c user.name='Scripted LLM' -c user.email=scripted-llm@example.invalid commit -q --allow-empty -m 'scripted base'",
  'git push -q -u origin HEAD',
  'echo scripted-changes-base',
  'pwd',
].join(' && ');
export const SCRIPTED_CHANGES_ADD_COMMAND = `printf 'created by the scripted LLM\\n' > ${SCRIPTED_CHANGES_ADDED}`;
export const SCRIPTED_CHANGES_FINISH =
  'Done: the scripted LLM committed a base, edited one file and created another.';

/**
 * A model name litellm knows can see (`supports_vision`), for a conversation's `llm_model`: the SDK
 * shows such a model the images (a screenshot, a user's ImageContent), and leaves them out for
 * `SCRIPTED_MODEL`. litellm sends `gpt-4o` to the stored base URL, this server.
 */
export const SCRIPTED_VISION_MODEL = 'openai/gpt-4o';
/** A user message holding this and a URL on 127.0.0.1 makes its turn the browse script. */
export const SCRIPTED_BROWSE = '[scripted-llm: browse]';
export const SCRIPTED_BROWSE_FINISH = 'Done: the scripted LLM looked at the page.';
/** A user message holding this (an image beside it) is answered with a finish at once. */
export const SCRIPTED_LOOK = '[scripted-llm: look]';
export const SCRIPTED_LOOK_FINISH = 'Done: the scripted LLM was shown an image.';
/** A user message holding this and a hand-off's working copy makes its turn the hand-off script. */
export const SCRIPTED_HANDOFF = '[scripted-llm: handoff]';
/** What the listing step prints first, so a test finds its output among the events. */
export const SCRIPTED_HANDOFF_LISTING = 'scripted-handoff-listing';
/** The file the agent edits in the handed-over work, and the line it changes (the user's unstaged edit). */
export const SCRIPTED_HANDOFF_EDITED = 'src/app.txt';
export const SCRIPTED_HANDOFF_OLD = 'three (unstaged)';
export const SCRIPTED_HANDOFF_NEW = 'three (unstaged), and one line by the scripted LLM';
export const SCRIPTED_HANDOFF_FINISH = 'Done: the scripted LLM listed what it was given and edited one line.';

/** One `image_url` part of a request, by digest (a screenshot is hundreds of KB). */
export interface RequestImage {
  /** The role of the message that holds it. */
  role: string;
  /** The URL's first characters (`data:image/png;base64,iVBOR…`). */
  head: string;
  chars: number;
  /** sha256 of the whole URL, hex. */
  sha256: string;
}

export interface ChatRequestSummary {
  stream: boolean;
  model: string;
  toolNames: string[];
  /** The reply's kind: a tool name, or `text` when the request offered no tools. */
  answered: string;
  /** The user messages in the request, and the tool results since the last one. */
  userMessages: number;
  turnResults: number;
  /** How long the answer was held back (`SCRIPTED_SLOW`), in ms. */
  delayedMs?: number;
  /** The images the request shows the model, in message order. */
  images: RequestImage[];
}

export interface ScriptedLlm {
  /** The base URL to store as the LLM base URL (ends in /v1). */
  baseUrl: string;
  requests: ChatRequestSummary[];
  close(): Promise<void>;
}

interface ToolSpec {
  type?: string;
  function?: { name?: string; parameters?: { properties?: Record<string, unknown>; required?: string[] } };
}

interface ChatMessage {
  role?: string;
  content?: unknown;
}

interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: ToolSpec[];
}

interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

function toolNamed(tools: ToolSpec[], pattern: RegExp): ToolSpec | undefined {
  return tools.find((t) => pattern.test(t.function?.name ?? ''));
}

/** Arguments for `tool`: ours, plus a value for every other required parameter the schema names. */
function argumentsFor(tool: ToolSpec, ours: Record<string, unknown>): Record<string, unknown> {
  const args: Record<string, unknown> = { ...ours };
  const properties = tool.function?.parameters?.properties ?? {};
  for (const name of tool.function?.parameters?.required ?? []) {
    if (name in args) continue;
    if (name === 'security_risk') args[name] = 'LOW';
    else if (name === 'summary') args[name] = 'scripted step';
    else if (name in properties) args[name] = '';
  }
  if ('security_risk' in properties && !('security_risk' in args)) args.security_risk = 'LOW';
  return args;
}

/** The text of a message's content (a string, or text parts). */
function textOf(message: ChatMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
          ? (part as { text: string }).text
          : '',
      )
      .join('');
  }
  return '';
}

/** The messages since the last user message (all of them when there is none). */
function currentTurn(messages: ChatMessage[]): ChatMessage[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i]?.role === 'user') return messages.slice(i + 1);
  }
  return messages;
}

/** The text of the request's last user message ('' when there is none). */
function lastUserText(request: ChatRequest): string {
  const user = [...(request.messages ?? [])].reverse().find((m) => m.role === 'user');
  return user ? textOf(user) : '';
}

/** Whether the request's last user message holds `marker`. */
function lastUserMessageHolds(request: ChatRequest, marker: string): boolean {
  return lastUserText(request).includes(marker);
}

/** The page the last user message asks to browse (`SCRIPTED_BROWSE`): loopback only, never the network. */
function browseTarget(request: ChatRequest): string | undefined {
  const text = lastUserText(request);
  if (!text.includes(SCRIPTED_BROWSE)) return undefined;
  // a URL ends at white space, a quote, or a comma or full stop before it
  return /\bhttp:\/\/127\.0\.0\.1:\d+\/[^\s"']*?(?=[,.]?(?:\s|$|["']))/.exec(text)?.[0];
}

/** The `image_url` parts of every message, by digest. */
export function requestImages(request: ChatRequest): RequestImage[] {
  const images: RequestImage[] = [];
  for (const message of request.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as unknown[]) {
      const url = (part as { type?: unknown; image_url?: { url?: unknown } } | null)?.image_url?.url;
      if ((part as { type?: unknown } | null)?.type !== 'image_url' || typeof url !== 'string') continue;
      images.push({
        role: message.role ?? '?',
        head: url.slice(0, 40),
        chars: url.length,
        sha256: createHash('sha256').update(url).digest('hex'),
      });
    }
  }
  return images;
}

/** The working copy a hand-off's first message names ("It is in your working copy, <path>."). */
function handoffWorkingCopy(request: ChatRequest): string | undefined {
  const text = lastUserText(request);
  if (!text.includes(SCRIPTED_HANDOFF)) return undefined;
  return /It is in your working copy, (\/[^\n]*?)\.(?:\n|$)/.exec(text)?.[1];
}

/** `text` as one sh word. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Whether the request's last user message asks for slow answers (`SCRIPTED_SLOW`). */
export function wantsSlowAnswers(request: ChatRequest): boolean {
  return lastUserMessageHolds(request, SCRIPTED_SLOW);
}

/** The script (see the top of this file): the answer to this request. */
export function nextStep(request: ChatRequest): ToolCall | { text: string } {
  const tools = request.tools ?? [];
  if (tools.length === 0) return { text: 'Scripted conversation' };
  const messages = request.messages ?? [];
  const turnResults = currentTurn(messages).filter((m) => m.role === 'tool');
  const userMessages = messages.filter((m) => m.role === 'user').length;
  const think = toolNamed(tools, /^think$/);
  const shell = toolNamed(tools, /^(terminal|execute_bash|bash)$/);
  const editor = toolNamed(tools, /^(file_editor|str_replace_editor)$/);
  const finish = toolNamed(tools, /^finish$/);
  const finishWith = (message: string): ToolCall | { text: string } =>
    finish ? { name: 'finish', arguments: argumentsFor(finish, { message }) } : { text: message };

  if (turnResults.some((m) => /Action rejected/.test(textOf(m)))) return finishWith(SCRIPTED_REJECTED_FINISH);
  if (lastUserMessageHolds(request, SCRIPTED_LOOK)) return finishWith(SCRIPTED_LOOK_FINISH);

  const steps: ToolCall[] = [];
  const page = browseTarget(request);
  if (page) {
    const navigate = toolNamed(tools, /^browser_navigate$/);
    const getState = toolNamed(tools, /^browser_get_state$/);
    if (navigate) steps.push({ name: 'browser_navigate', arguments: argumentsFor(navigate, { url: page }) });
    if (getState) {
      steps.push({
        name: 'browser_get_state',
        arguments: argumentsFor(getState, { include_screenshot: true }),
      });
    }
    if (finish) {
      steps.push({ name: 'finish', arguments: argumentsFor(finish, { message: SCRIPTED_BROWSE_FINISH }) });
    }
    return steps[turnResults.length] ?? { text: SCRIPTED_BROWSE_FINISH };
  }
  const handedTo = handoffWorkingCopy(request);
  if (handedTo) {
    if (shell) {
      steps.push({
        name: shell.function?.name ?? 'terminal',
        arguments: argumentsFor(shell, {
          // each file of the working tree (ignored ones aside) by its blob hash, one line a file, names
          // unquoted; the index says what is staged, not what the agent has in hand
          command:
            `cd ${shellWord(handedTo)} && echo ${SCRIPTED_HANDOFF_LISTING} && ` +
            `git -c core.quotePath=false ls-files -z --cached --others --exclude-standard | sort -zu | ` +
            `xargs -0 sh -c 'for f; do printf "%s %s\\n" "$(git hash-object -- "$f")" "$f"; done' sh`,
        }),
      });
    }
    if (editor) {
      steps.push({
        name: editor.function?.name ?? 'file_editor',
        arguments: argumentsFor(editor, {
          command: 'str_replace',
          path: `${handedTo}/${SCRIPTED_HANDOFF_EDITED}`,
          old_str: SCRIPTED_HANDOFF_OLD,
          new_str: SCRIPTED_HANDOFF_NEW,
        }),
      });
    }
    if (finish) {
      steps.push({ name: 'finish', arguments: argumentsFor(finish, { message: SCRIPTED_HANDOFF_FINISH }) });
    }
    return steps[turnResults.length] ?? { text: SCRIPTED_HANDOFF_FINISH };
  }
  if (lastUserMessageHolds(request, SCRIPTED_CHANGES)) {
    const turn = currentTurn(messages);
    if (shell) {
      steps.push({
        name: shell.function?.name ?? 'terminal',
        arguments: argumentsFor(shell, { command: SCRIPTED_CHANGES_BASE_COMMAND }),
      });
    }
    // the editor wants an absolute path: the folder the base command printed
    const folder = shell ? workingFolder(turn, 'scripted-changes-base') : undefined;
    if (editor && folder) {
      steps.push({
        name: editor.function?.name ?? 'file_editor',
        arguments: argumentsFor(editor, {
          command: 'str_replace',
          path: `${folder}/${SCRIPTED_CHANGES_EDITED}`,
          old_str: CHANGES_BASE_LINE,
          new_str: CHANGES_EDITED_LINE,
        }),
      });
      if (shell) {
        steps.push({
          name: shell.function?.name ?? 'terminal',
          arguments: argumentsFor(shell, { command: SCRIPTED_CHANGES_ADD_COMMAND }),
        });
      }
    }
    if (finish) {
      steps.push({ name: 'finish', arguments: argumentsFor(finish, { message: SCRIPTED_CHANGES_FINISH }) });
    }
    return steps[turnResults.length] ?? { text: SCRIPTED_CHANGES_FINISH };
  }
  if (userMessages > 1) {
    // a follow-up: one command, then finish
    if (shell) {
      steps.push({
        name: shell.function?.name ?? 'terminal',
        arguments: argumentsFor(shell, { command: SCRIPTED_FOLLOW_UP_COMMAND }),
      });
    }
    if (finish) {
      steps.push({ name: 'finish', arguments: argumentsFor(finish, { message: SCRIPTED_FOLLOW_UP_FINISH }) });
    }
    return steps[turnResults.length] ?? { text: SCRIPTED_FOLLOW_UP_FINISH };
  }

  if (think) {
    steps.push({
      name: 'think',
      arguments: argumentsFor(think, { thought: 'The script says: run one command, then finish.' }),
    });
  }
  if (shell) {
    steps.push({
      name: shell.function?.name ?? 'terminal',
      arguments: argumentsFor(shell, { command: SCRIPTED_COMMAND }),
    });
  }
  // the editor wants an absolute path: the folder the shell step printed
  const folder = shell ? workingFolder(messages, 'scripted-llm-was-here') : undefined;
  if (editor && folder) {
    steps.push({
      name: editor.function?.name ?? 'file_editor',
      arguments: argumentsFor(editor, {
        command: 'create',
        path: `${folder}/${SCRIPTED_FILE}`,
        file_text: SCRIPTED_FILE_TEXT,
      }),
    });
  }
  if (finish) steps.push({ name: 'finish', arguments: argumentsFor(finish, { message: SCRIPTED_FINISH }) });
  return steps[turnResults.length] ?? { text: SCRIPTED_FINISH };
}

/** The line after `marker` in a shell step's result: what `pwd` printed. */
function workingFolder(messages: ChatMessage[], marker: string): string | undefined {
  const pattern = new RegExp(`${marker}(?:\\\\n|\\n)(\\/[^\\s"\\\\]+)`);
  for (const message of messages) {
    if (message.role !== 'tool') continue;
    const text =
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '');
    const match = pattern.exec(text);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

let counter = 0;
function completionId(): string {
  counter += 1;
  return `chatcmpl-scripted-${Date.now().toString(36)}-${counter}`;
}

const USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };

function completion(model: string, step: ToolCall | { text: string }) {
  const created = Math.floor(Date.now() / 1000);
  const id = completionId();
  if ('text' in step) {
    return {
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: step.text } }],
      usage: USAGE,
    };
  }
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: `call_${id.slice(-12)}`,
              type: 'function',
              function: { name: step.name, arguments: JSON.stringify(step.arguments) },
            },
          ],
        },
      },
    ],
    usage: USAGE,
  };
}

/** The same answer as server-sent `chat.completion.chunk`s, the way OpenAI streams it. */
function chunks(model: string, step: ToolCall | { text: string }): object[] {
  const created = Math.floor(Date.now() / 1000);
  const id = completionId();
  const chunk = (delta: object, finish: string | null = null, usage?: object) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  });
  if ('text' in step) {
    return [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: step.text }),
      chunk({}, 'stop'),
      { id, object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE },
    ];
  }
  const args = JSON.stringify(step.arguments);
  const half = Math.floor(args.length / 2);
  return [
    chunk({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          index: 0,
          id: `call_${id.slice(-12)}`,
          type: 'function',
          function: { name: step.name, arguments: '' },
        },
      ],
    }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
    chunk({}, 'tool_calls'),
    { id, object: 'chat.completion.chunk', created, model, choices: [], usage: USAGE },
  ];
}

/** Waits `ms`, or until the client goes away (then true). */
function holdBack(res: http.ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    res.once('close', onClose);
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  requests: ChatRequestSummary[],
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && /\/scripted\/requests$/.test(url.pathname)) {
    sendJson(res, 200, requests);
    return;
  }
  if (req.method === 'GET' && /\/models$/.test(url.pathname)) {
    sendJson(res, 200, { object: 'list', data: [{ id: 'scripted-llm', object: 'model', owned_by: 'test' }] });
    return;
  }
  if (req.method !== 'POST' || !/\/chat\/completions$/.test(url.pathname)) {
    sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: 'not_found' } });
    return;
  }
  let request: ChatRequest;
  try {
    request = JSON.parse(await readBody(req)) as ChatRequest;
  } catch {
    sendJson(res, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    return;
  }
  const model = request.model ?? 'scripted-llm';
  const step = nextStep(request);
  const messages = request.messages ?? [];
  const summary: ChatRequestSummary = {
    stream: request.stream === true,
    model,
    toolNames: (request.tools ?? []).map((t) => t.function?.name ?? '?'),
    answered: 'text' in step ? 'text' : step.name,
    userMessages: messages.filter((m) => m.role === 'user').length,
    turnResults: currentTurn(messages).filter((m) => m.role === 'tool').length,
    images: requestImages(request),
  };
  requests.push(summary);
  if (wantsSlowAnswers(request)) {
    const started = Date.now();
    // the caller may give up first (an interrupt cancels the model call): then nothing is sent
    const gone = await holdBack(res, SCRIPTED_SLOW_MS);
    summary.delayedMs = Date.now() - started;
    if (gone) return;
  }
  if (request.stream !== true) {
    sendJson(res, 200, completion(model, step));
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const part of chunks(model, step)) res.write(`data: ${JSON.stringify(part)}\n\n`);
  res.end('data: [DONE]\n\n');
}

export async function startScriptedLlm(options: { port?: number } = {}): Promise<ScriptedLlm> {
  const requests: ChatRequestSummary[] = [];
  const server = http.createServer((req, res) => {
    handle(req, res, requests).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error' } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
