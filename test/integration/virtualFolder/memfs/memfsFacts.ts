// What the memfs test extension serves and exports, shared by it and the tests that read it.

export const MEMFS_SCHEME = 'memfs';
export const MEMFS_EXTENSION_ID = 'openhands-community.openhands-test-memfs';
/** The workspace folder the virtual-folder pass opens. */
export const MEMFS_FOLDER = 'memfs:/webapp';

/** A repository as a virtual file system holds it: its files and its `.git`, by path. */
export const SEEDED_FILES: Readonly<Record<string, string>> = {
  '/webapp/README.md': '# webapp\n',
  '/webapp/src/login.ts': 'export const login = () => true;\n',
  '/webapp/.git/HEAD': 'ref: refs/heads/main\n',
};

export interface MemfsExports {
  /** Every call that would have changed a file or folder, in order (`writeFile /webapp/a.ts`). */
  changes(): string[];
}
