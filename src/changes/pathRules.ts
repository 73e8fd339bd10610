/**
 * What a path named by an agent's patch may be, read as text alone (no file system): relative,
 * normalised, inside the work tree and nowhere in `.git`. Every answer is a sentence a user reads.
 */

// Code points HFS+ ignores in file names: `.g\u200cit` is `.git` there (git's is_hfs_dotgit).
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** A name folded the way case-insensitive file systems see it (macOS, Windows). */
export function foldName(name: string): string {
  return name.normalize('NFC').replace(HFS_IGNORED, '').toLowerCase();
}

/**
 * Whether one path component is `.git` in any of git's own spellings: any case, HFS+'s ignored code
 * points, NTFS's trailing dots and spaces, an NTFS stream (`.git::$INDEX_ALLOCATION`), or its 8.3 short
 * name `git~1`.
 */
export function isGitFolderName(component: string): boolean {
  const folded =
    foldName(component)
      .split(':')[0]
      ?.replace(/[. ]+$/, '') ?? '';
  return folded === '.git' || folded === 'git~1';
}

// git refuses these as symlinks (they would make it read another file as its own configuration).
const NEVER_LINKS = new Set(['.gitmodules', '.gitattributes', '.gitignore', '.mailmap']);

/** Why `path`, as the patch names it, is not a path inside the work tree; undefined when it is. */
export function pathProblem(path: string): string | undefined {
  if (path === '') return 'it has no name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(path)) return 'its name holds a control character';
  if (path.includes('\\')) return 'its name holds a backslash (a folder separator on Windows)';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path))
    return 'it is an absolute path, outside the repository';
  const components = path.split('/');
  if (components.includes('..')) return 'it climbs out of the repository with “..”';
  if (components.some((component) => component === '' || component === '.')) {
    return 'it is not a plain relative path (an empty or “.” folder)';
  }
  if (components.some(isGitFolderName)) return 'it is inside .git, where git keeps its own files and hooks';
  return undefined;
}

/** Why a symlink at `linkPath` may not point at `target`; undefined when the target stays in the tree. */
export function linkTargetProblem(linkPath: string, target: string): string | undefined {
  const name = linkPath.split('/').pop() ?? '';
  if (NEVER_LINKS.has(foldName(name).replace(/[. ]+$/, ''))) {
    return `${name} may not be a link (git would read another file as its own)`;
  }
  if (target === '') return 'a link with an empty target';
  const resolved = resolveLinkTarget(linkPath, target);
  if (resolved === undefined) return `a link to “${target}”, outside the repository`;
  if (resolved.some(isGitFolderName)) return `a link to “${target}”, inside .git`;
  return undefined;
}

/**
 * The components of the path a link at `linkPath` to `target` names, from the repository root; undefined
 * when it leaves the repository (an absolute target, or more `..` than folders).
 */
export function resolveLinkTarget(linkPath: string, target: string): string[] | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/u.test(target)) return undefined;
  if (target.startsWith('/') || target.includes('\\') || /^[A-Za-z]:/.test(target)) return undefined;
  const resolved = linkPath.split('/').slice(0, -1);
  for (const component of target.split('/')) {
    if (component === '' || component === '.') continue;
    if (component === '..') {
      if (resolved.length === 0) return undefined;
      resolved.pop();
    } else {
      resolved.push(component);
    }
  }
  return resolved;
}

/** The folders above `path`, shallowest first: `a/b/c` → `a`, `a/b`. */
export function parentFolders(path: string): string[] {
  const components = path.split('/');
  return components.slice(1).map((_, index) => components.slice(0, index + 1).join('/'));
}
