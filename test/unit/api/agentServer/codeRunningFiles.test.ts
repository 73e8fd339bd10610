// The rules that say which files of an agent's change can run code on the user's machine: every rule
// by a path it must match (and where it may sit), the near misses it must not, the spellings Windows
// and macOS read as the same name, and the modes a patch gives.
import assert from 'node:assert/strict';
import {
  CODE_RUNNING_RULES,
  codeRunningFiles,
  codeRunningReason,
  codeRunningRule,
  EXECUTABLE_REASON,
  LINK_REASON,
} from '../../../../src/api';

/** For each rule's pattern: paths it must match (each also checked under a subfolder unless root-only). */
const MATCHES: Record<string, string[]> = {
  '.vscode/tasks.json': ['.vscode/tasks.json'],
  '.vscode/launch.json': ['.vscode/launch.json'],
  '.vscode/settings.json': ['.vscode/settings.json'],
  '.vscode/mcp.json': ['.vscode/mcp.json'],
  '.vscode/extensions.json': ['.vscode/extensions.json'],
  '*.code-workspace': ['app.code-workspace', '.vscode/team.code-workspace'],
  '.devcontainer/**': ['.devcontainer/devcontainer.json', '.devcontainer/python/Dockerfile'],
  '.devcontainer.json': ['.devcontainer.json'],
  '.envrc': ['.envrc'],
  '.env': ['.env'],
  '.env.*': ['.env.local', '.env.production'],
  '.husky/**': ['.husky/pre-commit', '.husky/_/husky.sh'],
  '.githooks/**': ['.githooks/pre-push'],
  '.git-hooks/**': ['.git-hooks/commit-msg'],
  '.pre-commit-config.yaml': ['.pre-commit-config.yaml'],
  '.gitmodules': ['.gitmodules'],
  '.gitattributes': ['.gitattributes'],
  '.github/workflows/*.yml': ['.github/workflows/ci.yml'],
  '.github/workflows/*.yaml': ['.github/workflows/release.yaml'],
  '.gitlab-ci.yml': ['.gitlab-ci.yml'],
  '.circleci/config.yml': ['.circleci/config.yml'],
  'azure-pipelines.yml': ['azure-pipelines.yml'],
  'bitbucket-pipelines.yml': ['bitbucket-pipelines.yml'],
  '.travis.yml': ['.travis.yml'],
  Jenkinsfile: ['Jenkinsfile'],
  'package.json': ['package.json'],
  '.npmrc': ['.npmrc'],
  '.yarnrc': ['.yarnrc'],
  '.yarnrc.yml': ['.yarnrc.yml'],
  'pyproject.toml': ['pyproject.toml'],
  'setup.py': ['setup.py'],
  Makefile: ['Makefile', 'makefile'],
  GNUmakefile: ['GNUmakefile'],
  '*.mk': ['rules.mk'],
  'CMakeLists.txt': ['CMakeLists.txt'],
  '*.cmake': ['toolchain.cmake'],
  'build.gradle': ['build.gradle'],
  'build.gradle.kts': ['build.gradle.kts'],
  'settings.gradle': ['settings.gradle'],
  'settings.gradle.kts': ['settings.gradle.kts'],
  'gradle/wrapper/gradle-wrapper.properties': ['gradle/wrapper/gradle-wrapper.properties'],
  'pom.xml': ['pom.xml'],
  'build.rs': ['build.rs'],
};

/** Paths no rule may match: a name a letter off, a rule's folder without its file, the wrong folder. */
const NEAR_MISSES = [
  'src/app.ts',
  'README.md',
  'tasks.json',
  'vscode/tasks.json',
  '.vscode/tasks.json.bak',
  '.vscode/tasks.jsonc',
  '.vscode/keybindings.json',
  '.vscode',
  '.vscode/settings.json/notes.md',
  'docs/.vscode.md',
  'workspace.code-workspace.txt',
  '.devcontainer',
  'devcontainer/devcontainer.json',
  '.envrc.md',
  'envrc',
  '.environment',
  '.env.example',
  '.env.sample',
  '.env.template',
  'config/.env.example',
  '.husky',
  'husky/pre-commit',
  '.githooks',
  '.pre-commit-config.yml.txt',
  '.gitignore',
  '.github/workflows/README.md',
  '.github/workflows/ci.yml.disabled',
  '.github/ISSUE_TEMPLATE/bug.yml',
  '.github/dependabot.yml',
  'docs/.github/workflows/ci.yml',
  'sub/.gitlab-ci.yml',
  'sub/.gitmodules',
  'ci/Jenkinsfile',
  'package-lock.json',
  'packages.json',
  'package.json5',
  'npmrc',
  'pyproject.toml.orig',
  'setup.cfg',
  'setup_py.txt',
  'Makefile.am.txt',
  'Makefiles/README.md',
  'docs/make.md',
  'rules.mk.bak',
  'CMakeLists.md',
  'build.gradle.bak',
  'gradle/wrapper/gradle-wrapper.jar',
  'pom.xml.orig',
  'src/build.rs.txt',
  'rs/build',
];

describe('codeRunningRule: files that can run code, by path', () => {
  it('every rule is listed here, with a reason in plain words', () => {
    assert.deepEqual(
      CODE_RUNNING_RULES.map((rule) => rule.pattern).sort(),
      Object.keys(MATCHES).sort(),
      'a rule without a test, or a test without a rule',
    );
    for (const rule of CODE_RUNNING_RULES) {
      assert.ok(rule.reason.length > 20 && rule.reason.length < 120, `${rule.pattern}: ${rule.reason}`);
      assert.ok(!/[.]$/.test(rule.reason), `${rule.pattern}: a reason is a phrase, shown after a dash`);
    }
  });

  for (const rule of CODE_RUNNING_RULES) {
    it(`${rule.pattern}${rule.rootOnly ? ' (at the root only)' : ' (in any folder)'}`, () => {
      for (const path of MATCHES[rule.pattern] ?? []) {
        assert.equal(codeRunningRule(path)?.pattern, rule.pattern, path);
        const nested = `packages/web/${path}`;
        if (rule.rootOnly) assert.equal(codeRunningRule(nested), undefined, nested);
        else assert.equal(codeRunningRule(nested)?.pattern, rule.pattern, nested);
      }
    });
  }

  it('near misses match no rule', () => {
    const matched = NEAR_MISSES.filter((path) => codeRunningRule(path) !== undefined).map(
      (path) => `${path} → ${codeRunningRule(path)?.pattern}`,
    );
    assert.deepEqual(matched, []);
  });

  it('reads names as Windows and macOS do: any case, trailing dots and spaces, a stream, ignored code points', () => {
    const spellings = {
      '.VSCode/Tasks.json': '.vscode/tasks.json',
      '.vscode./tasks.json': '.vscode/tasks.json',
      '.vscode/tasks.json ': '.vscode/tasks.json',
      '.vscode/tasks.json::$DATA': '.vscode/tasks.json',
      '.vs\u200ccode/tasks.json': '.vscode/tasks.json',
      '.GITHUB/Workflows/CI.YML': '.github/workflows/*.yml',
      MAKEFILE: 'Makefile',
      '.Envrc': '.envrc',
      'Package.JSON': 'package.json',
      '.HUSKY/pre-commit': '.husky/**',
      '.vscode\\settings.json': '.vscode/settings.json',
    };
    for (const [path, pattern] of Object.entries(spellings))
      assert.equal(codeRunningRule(path)?.pattern.toLowerCase(), pattern.toLowerCase(), JSON.stringify(path));
  });
});

describe('codeRunningReason: by mode, as the patch gives it', () => {
  const FILE = 0o100644;
  const EXECUTABLE = 0o100755;
  const LINK = 0o120000;

  it('a file made executable, new or from 100644, is marked; one that already was, or loses the bit, is not', () => {
    assert.equal(codeRunningReason({ path: 'scripts/run.sh', newMode: EXECUTABLE }), EXECUTABLE_REASON);
    assert.equal(
      codeRunningReason({ path: 'scripts/run.sh', oldMode: FILE, newMode: EXECUTABLE }),
      EXECUTABLE_REASON,
    );
    assert.equal(
      codeRunningReason({ path: 'scripts/run.sh', oldMode: EXECUTABLE, newMode: EXECUTABLE }),
      undefined,
    );
    assert.equal(
      codeRunningReason({ path: 'scripts/run.sh', oldMode: EXECUTABLE, newMode: FILE }),
      undefined,
    );
    assert.equal(codeRunningReason({ path: 'scripts/run.sh', newMode: FILE }), undefined);
    assert.equal(codeRunningReason({ path: 'scripts/run.sh', oldMode: EXECUTABLE }), undefined);
    assert.equal(codeRunningReason({ path: 'scripts/run.sh' }), undefined);
  });

  it('a deleted file is never marked, by the patch’s status or the list’s', () => {
    assert.equal(codeRunningReason({ path: 'Makefile', status: 'deleted', oldMode: FILE }), undefined);
    assert.equal(codeRunningReason({ path: '.vscode/tasks.json', status: 'DELETED' }), undefined);
    assert.ok(codeRunningReason({ path: '.vscode/tasks.json', status: 'UPDATED' }));
  });

  it('a new link is marked; a link that stays one is not', () => {
    assert.equal(codeRunningReason({ path: 'bin/tool', newMode: LINK }), LINK_REASON);
    assert.equal(codeRunningReason({ path: 'bin/tool', oldMode: FILE, newMode: LINK }), LINK_REASON);
    assert.equal(codeRunningReason({ path: 'bin/tool', oldMode: LINK, newMode: LINK }), undefined);
  });

  it('a name’s reason wins over a mode’s; codeRunningFiles keeps the order and drops the rest', () => {
    const hook = codeRunningReason({ path: '.husky/pre-commit', newMode: EXECUTABLE });
    assert.equal(hook, 'husky has git run these hooks on commit and push');
    assert.deepEqual(
      codeRunningFiles([
        { path: 'src/app.ts', oldMode: FILE, newMode: FILE },
        { path: 'Makefile', oldMode: FILE, newMode: FILE },
        { path: 'notes.md' },
        { path: 'tools/x', newMode: EXECUTABLE },
      ]),
      [
        { path: 'Makefile', reason: 'make runs its recipes' },
        { path: 'tools/x', reason: EXECUTABLE_REASON },
      ],
    );
  });
});
