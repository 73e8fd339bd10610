// The names a document of the house mentions — files and folders, code names, command ids — each checked
// against the repository, so that a file moved or a function renamed makes the document's check fail
// instead of leaving a newcomer to look for what is gone. Run alone: `npx tsx scripts/docs/docNames.ts
// docs/architecture.md`; `test/unit/docs/architecture.test.ts` runs it on every `npm test`.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** One name the document mentions that the repository does not hold, and where it is said. */
export interface MissingName {
  name: string;
  line: number;
  why: string;
}

/** What the names are checked against: the repository's files, its code's words and its command ids. */
export interface Repository {
  /** Whether a file or folder is at this path from the root, or ends a path of the code's (`host/panel.ts`). */
  exists(relativePath: string): boolean;
  /** Every word of the code (identifiers, and the dotted command and setting ids). */
  words: ReadonlySet<string>;
}

const FILE_EXTENSIONS = /\.(ts|mts|mjs|js|json|md|css|sh|png|webp)$/;
/** Written names that are not in the repository on purpose: build output and generated folders. */
const BUILT = /^(dist|out|\.artifacts|\.vscode-test|node_modules)\//;
/** A code name worth checking: camelCase or PascalCase, optionally `Owner.member` or a call `name()`. */
const CODE_NAME = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)?(\(\))?$/;

/** Every `code span` of a Markdown text outside fenced blocks, with its line number. */
export function codeSpans(markdown: string): { text: string; line: number }[] {
  const spans: { text: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const match of text.matchAll(/`([^`]+)`/g)) spans.push({ text: match[1] ?? '', line: index + 1 });
  });
  return spans;
}

/** Whether a code span names a file or folder of the repository (as opposed to a route, a URL or a value). */
function isPath(span: string): boolean {
  // a route (`/api/git/changes`), a URL, a value or an extension alone (`.png`) is not a path
  if (/[\s:*?<>{}()=,'"[\]]/.test(span) || span.startsWith('/') || /^\.\w+$/.test(span)) return false;
  return /^[\w.@-]+(\/[\w.@-]*)+$/.test(span) || FILE_EXTENSIONS.test(span);
}

/** Whether a code span is a code name worth checking (mixed case: `store`, `ok` or `send` are words, not names). */
function isCodeName(span: string): boolean {
  if (!CODE_NAME.test(span)) return false;
  const bare = span.replace(/\(\)$/, '');
  return bare.split('.').some((part) => /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|^[A-Z][a-z]{2,}$/.test(part));
}

/**
 * The names `markdown` mentions that `repository` does not hold. A path is looked for from the
 * repository's root, then under `src/`, then as the end of a path of the code's (a walk through one folder
 * names its files short); a code name must be a word of the code; an `openhands.*` id one the code or the
 * manifest names.
 */
export function missingNames(markdown: string, repository: Repository): MissingName[] {
  const missing: MissingName[] = [];
  for (const { text, line } of codeSpans(markdown)) {
    const span = text.trim();
    if (/^openhands\.[\w.]+$/.test(span)) {
      if (!repository.words.has(span)) missing.push({ name: span, line, why: 'no such command or setting' });
    } else if (isPath(span)) {
      const relative = span.replace(/\/$/, '');
      if (BUILT.test(relative)) continue;
      if (!repository.exists(relative)) missing.push({ name: span, line, why: 'no such file or folder' });
    } else if (isCodeName(span)) {
      const names = span.replace(/\(\)$/, '').split('.');
      const absent = names.filter((name) => !repository.words.has(name));
      if (absent.length)
        missing.push({ name: span, line, why: `not a name in the code: ${absent.join(', ')}` });
    }
  }
  return missing;
}

/** The folders whose files and words a document may name. */
const CODE_FOLDERS = ['src', 'test', 'scripts', 'bench', 'docs', 'media', '.ci'];

function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? [full + '/', ...filesUnder(full)] : [full];
  });
}

/** The repository at `root`, as `missingNames` reads it. */
export function repositoryAt(root: string): Repository {
  const files = CODE_FOLDERS.flatMap((folder) => filesUnder(path.join(root, folder))).map(
    (file) => path.relative(root, file).split(path.sep).join('/') + (file.endsWith('/') ? '/' : ''),
  );
  const words = new Set<string>();
  // words from tests do not count: a test naming a gone function (this check's own test does) keeps nothing alive
  const texts = files
    .filter((file) => /\.(ts|mts|mjs|css|json)$/.test(file) && !file.endsWith('.test.ts'))
    .concat('package.json', 'eslint.config.mjs');
  for (const file of texts)
    for (const word of fs
      .readFileSync(path.join(root, file), 'utf8')
      .match(/[A-Za-z_$][\w$]*(?:\.[\w$]+)*/g) ?? []) {
      words.add(word);
      for (const part of word.split('.')) words.add(part);
    }
  const exists = (relativePath: string): boolean =>
    fs.existsSync(path.join(root, relativePath)) ||
    files.some((file) => file.replace(/\/$/, '').endsWith(`/${relativePath}`));
  return { exists, words };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  const documents = process.argv.slice(2);
  const repository = repositoryAt(process.cwd());
  let failed = false;
  for (const document of documents.length ? documents : ['docs/architecture.md']) {
    for (const { name, line, why } of missingNames(fs.readFileSync(document, 'utf8'), repository)) {
      console.error(`${document}:${line}: \`${name}\`: ${why}`);
      failed = true;
    }
  }
  process.exitCode = failed ? 1 : 0;
}
