/**
 * Which files of an agent's change can run code on the user's machine without the user running the
 * program themselves: a tool reads them and runs what they say (VS Code when the folder opens or a
 * task starts, git on a commit, direnv on `cd`, npm on install, make, CI on a push), or they become
 * runnable. Each rule is a path pattern and one plain reason the user reads beside the file.
 *
 * The set, and why: files that tools on a developer's machine (or its CI, with its secrets) run or
 * obey on their own or on an everyday command, as opposed to the project's source, which runs only
 * when the program does. Kept to what such a tool reads by a fixed name:
 * - VS Code: `.vscode/tasks.json` (tasks, some with `runOn: folderOpen`), `launch.json`,
 *   `settings.json` (programs that extensions start: interpreters, linters, terminal profiles),
 *   `mcp.json` (servers VS Code starts), `extensions.json` (extensions it offers to install), any
 *   `*.code-workspace` (settings, tasks and launch configurations of its own), `.devcontainer/…` and
 *   `.devcontainer.json` (a container and its commands).
 * - The shell's loaders: `.envrc` (direnv runs it on `cd`), `.env` and `.env.*` (variables tools load;
 *   `NODE_OPTIONS` or `PATH` among them change what runs; not `.env.example`, `.sample`, `.template`).
 * - git: `.husky/…`, `.githooks/…`, `.git-hooks/…` (hooks folders `core.hooksPath` names),
 *   `.pre-commit-config.yaml`, `.gitmodules` (other repositories cloned in), `.gitattributes` (filter
 *   and diff drivers).
 * - CI, which runs with the repository's secrets: `.github/workflows/*.yml|yaml`, `.gitlab-ci.yml`,
 *   `.circleci/config.yml`, `azure-pipelines.yml`, `bitbucket-pipelines.yml`, `.travis.yml`, `Jenkinsfile`.
 * - Package managers and builds: `package.json` (its scripts; whether a change touches them cannot be
 *   told from a hunk, whose context may not show the object a line is in, so every change is marked),
 *   `.npmrc`, `.yarnrc`, `.yarnrc.yml`, `pyproject.toml`, `setup.py`, `Makefile` (any case: make's
 *   `makefile` too), `GNUmakefile`, `*.mk`, `CMakeLists.txt`, `*.cmake`, `build.gradle(.kts)`,
 *   `settings.gradle(.kts)`, `gradle-wrapper.properties`, `pom.xml`, `build.rs`.
 * - By mode, known only from the patch (the agent server's change list has paths alone): a file made
 *   executable (new with mode 100755, or 100644 → 100755) and a new symlink. A name's reason wins.
 * Left out: the project's own source and tests (they run when the user runs them), lock files, and
 * tools that need a setting to turn them on (mise, asdf).
 *
 * A file the change deletes is never marked. Names match at any depth (a subfolder may be opened,
 * built or installed on its own), except where only the root counts (`.github/workflows`, the CI
 * files, `.gitmodules`). Case is ignored, with the spellings Windows and macOS read as the same name
 * (trailing dots and spaces, an NTFS stream, HFS+'s ignored code points): there `.VSCode/Tasks.json`
 * is `.vscode/tasks.json`; on Linux such a name is marked too, and a false mark costs a glance where a
 * missed one runs code. Windows' 8.3 short names (`VSCODE~1`) are not recognised.
 */

/** One rule: the pattern it is documented by, and the sentence the user reads. */
export interface CodeRunningRule {
  /** `/`-separated; `*` any characters within a name; a trailing `/**` any file below the folder. */
  pattern: string;
  /** Whether only the repository's root counts (else the pattern may sit in any folder). */
  rootOnly: boolean;
  reason: string;
  /** Names the pattern matches that no tool loads (templates). */
  except?: readonly string[];
}

/** A file of the change, with the modes the patch gives (none from the change list). */
export interface CodeRunningCandidate {
  path: string;
  /** The patch's `deleted` or the list's `DELETED`: a file the change deletes runs nothing. */
  status?: string;
  /** Octal file modes: 0o100644, 0o100755, 0o120000 (a link); absent when unknown or absent. */
  oldMode?: number;
  newMode?: number;
}

/** A file that can run code, and why. */
export interface CodeRunningFile {
  path: string;
  reason: string;
}

const rule = (pattern: string, reason: string, rootOnly = false): CodeRunningRule => ({
  pattern,
  rootOnly,
  reason,
});
const ENV_REASON = 'tools load its variables, and some (NODE_OPTIONS, PATH) change what runs';

const WORKFLOW = 'GitHub runs its workflows on a push, with the repository’s secrets';
const CI = 'the CI service runs it on a push, with the repository’s secrets';
const HOOKS = 'git runs these hooks on commit or push when core.hooksPath names the folder';
const MAKE = 'make runs its recipes';
const CMAKE = 'CMake runs it when it configures the build, and it can run any command';
const GRADLE = 'Gradle runs it on a build, and Java extensions run Gradle when the folder opens';

export const CODE_RUNNING_RULES: readonly CodeRunningRule[] = [
  rule('.vscode/tasks.json', 'VS Code runs its tasks, some as soon as the folder opens (runOn: folderOpen)'),
  rule('.vscode/launch.json', 'VS Code runs its launch configurations and their tasks when you debug'),
  rule(
    '.vscode/settings.json',
    'the folder’s settings can name programs VS Code and its extensions run (interpreters, linters, terminals)',
  ),
  rule('.vscode/mcp.json', 'VS Code can start the MCP servers it lists'),
  rule('.vscode/extensions.json', 'VS Code offers to install the extensions it recommends'),
  rule('*.code-workspace', 'a workspace file holds settings, tasks and launch configurations VS Code runs'),
  rule('.devcontainer/**', 'Dev Containers builds this container and runs its commands'),
  rule('.devcontainer.json', 'Dev Containers builds this container and runs its commands'),
  rule('.envrc', 'direnv runs it as shell code when you enter the folder'),
  rule('.env', ENV_REASON),
  // `.env.local`, `.env.production`…; the templates beside them are loaded by nothing
  { ...rule('.env.*', ENV_REASON), except: ['.env.example', '.env.sample', '.env.template'] },
  rule('.husky/**', 'husky has git run these hooks on commit and push'),
  rule('.githooks/**', HOOKS),
  rule('.git-hooks/**', HOOKS),
  rule('.pre-commit-config.yaml', 'pre-commit runs its hooks on every commit'),
  rule('.gitmodules', 'it names other repositories git clones into this one', true),
  rule('.gitattributes', 'it can name filter and diff drivers git runs on checkout, diff and commit'),
  rule('.github/workflows/*.yml', WORKFLOW, true),
  rule('.github/workflows/*.yaml', WORKFLOW, true),
  rule('.gitlab-ci.yml', CI, true),
  rule('.circleci/config.yml', CI, true),
  rule('azure-pipelines.yml', CI, true),
  rule('bitbucket-pipelines.yml', CI, true),
  rule('.travis.yml', CI, true),
  rule('Jenkinsfile', CI, true),
  rule('package.json', 'it can define scripts npm runs (install, test and other lifecycle scripts)'),
  rule('.npmrc', 'it can change what npm runs (script-shell, node-options) and where it installs from'),
  rule('.yarnrc', 'it can name the program that runs as yarn (yarn-path)'),
  rule('.yarnrc.yml', 'it can name the program that runs as yarn (yarnPath) and its plugins'),
  rule('pyproject.toml', 'it names the build backend pip runs when it installs the project'),
  rule('setup.py', 'pip and python run it when the project is installed or built'),
  rule('Makefile', MAKE),
  rule('GNUmakefile', MAKE),
  rule('*.mk', MAKE),
  rule('CMakeLists.txt', CMAKE),
  rule('*.cmake', CMAKE),
  rule('build.gradle', GRADLE),
  rule('build.gradle.kts', GRADLE),
  rule('settings.gradle', GRADLE),
  rule('settings.gradle.kts', GRADLE),
  rule('gradle/wrapper/gradle-wrapper.properties', 'it names the Gradle that gradlew downloads and runs'),
  rule('pom.xml', 'Maven runs its plugins on a build, and Java extensions read it when the folder opens'),
  rule('build.rs', 'cargo runs it before every build'),
];

export const EXECUTABLE_REASON = 'made executable: it can now be run as a program (a hook, a script)';
export const LINK_REASON = 'a new link: whatever reads or runs this name gets the file it points to';

const EXECUTABLE_MODE = 0o100755;
const LINK_MODE = 0o120000;

// Code points HFS+ ignores in file names (git's is_hfs_dotgit): `.vs\u200ccode` is `.vscode` on a Mac.
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** A name as a case-insensitive file system sees it: folded case, no NTFS stream, no trailing dots or spaces. */
function foldedName(name: string): string {
  const folded = name.normalize('NFC').replace(HFS_IGNORED, '').toLowerCase();
  return (folded.split(':')[0] ?? '').replace(/[. ]+$/, '');
}

interface CompiledRule {
  rule: CodeRunningRule;
  names: RegExp[];
  /** A trailing `/**`: at least one more name below the pattern's folder. */
  below: boolean;
  except: ReadonlySet<string>;
  /** The name the path must hold, when the pattern's key name has no `*`: a file's own, a folder's. */
  literal?: string;
}

function compile(rule: CodeRunningRule): CompiledRule {
  const parts = rule.pattern.toLowerCase().split('/');
  const below = parts[parts.length - 1] === '**';
  if (below) parts.pop();
  const names = parts.map(
    (part) => new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'u'),
  );
  const key = below ? parts[0] : parts[parts.length - 1];
  const compiled: CompiledRule = { rule, names, below, except: new Set(rule.except ?? []) };
  if (key !== undefined && !key.includes('*')) compiled.literal = key;
  return compiled;
}

const COMPILED = CODE_RUNNING_RULES.map(compile);

function matchesAt(compiled: CompiledRule, names: readonly string[], start: number): boolean {
  if (compiled.except.has(names[names.length - 1] ?? '')) return false;
  return compiled.names.every((pattern, offset) => pattern.test(names[start + offset] ?? ''));
}

/**
 * Where the rule's names may start in a path of `count` names: one place for a file's pattern (its
 * last names), any folder above the file for a folder's (`/**`); the root alone when root-only.
 */
function startsFor(compiled: CompiledRule, count: number): number[] {
  const length = compiled.names.length;
  if (compiled.below) {
    const last = compiled.rule.rootOnly ? Math.min(0, count - length - 1) : count - length - 1;
    return Array.from({ length: Math.max(0, last + 1) }, (_, index) => index);
  }
  const start = count - length;
  return start < 0 || (compiled.rule.rootOnly && start !== 0) ? [] : [start];
}

/** The rule `path` falls under (`/`-separated, relative to the repository), if any. */
export function codeRunningRule(path: string): CodeRunningRule | undefined {
  const names = path.replace(/\\/g, '/').split('/').filter(Boolean).map(foldedName);
  const file = names[names.length - 1];
  const folders = new Set(names.slice(0, -1));
  for (const compiled of COMPILED) {
    // most rules name a file or folder outright: a set lookup rules them out before any pattern runs
    const literal = compiled.literal;
    if (literal !== undefined && !(compiled.below ? folders.has(literal) : file === literal)) continue;
    if (startsFor(compiled, names.length).some((start) => matchesAt(compiled, names, start)))
      return compiled.rule;
  }
  return undefined;
}

/** Why the mode the patch gives the file lets it run code: a new executable bit, a new link. */
export function modeReason(file: CodeRunningCandidate): string | undefined {
  if (file.newMode === EXECUTABLE_MODE && file.oldMode !== EXECUTABLE_MODE) return EXECUTABLE_REASON;
  if (file.newMode === LINK_MODE && file.oldMode !== LINK_MODE) return LINK_REASON;
  return undefined;
}

/** Why the file can run code on the user's machine; undefined when no rule says so. */
export function codeRunningReason(file: CodeRunningCandidate): string | undefined {
  if (file.status === 'deleted' || file.status === 'DELETED') return undefined;
  // a name's reason alone: a hook made executable is a hook
  return codeRunningRule(file.path)?.reason ?? modeReason(file);
}

/** The files of `files` that can run code, in their order, each with its reason. */
export function codeRunningFiles(files: readonly CodeRunningCandidate[]): CodeRunningFile[] {
  return files.flatMap((file) => {
    const reason = codeRunningReason(file);
    return reason === undefined ? [] : [{ path: file.path, reason }];
  });
}
