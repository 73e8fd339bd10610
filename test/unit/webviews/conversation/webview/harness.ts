// The conversation panel's page outside VS Code: the built dist/webview/conversation.js and .css in
// Debian's Chromium (playwright-core), in the document the extension builds (kit/host/document.ts:
// the same CSP, a nonce), with an `acquireVsCodeApi` that records what the page posts and keeps its
// state, the theme variables VS Code sets (light, dark, high contrast, approximated from its default
// themes) and VS Code's default webview styles. Host messages arrive as VS Code delivers them: as
// `message` events on the window (window.postMessage). Used by the tests and `npm run bench`.
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH, chromiumVerdict } from '../../../../shared/chromium';
import { pageBuildOptions } from '../../../../../scripts/build/pages.mjs';
import { webviewDocument } from '../../../../../src/webviews/kit/host/document';
import type { HostToWebview, WebviewToHost } from '../../../../../src/webviews/conversation/shared/protocol';
import { REPOSITORY_ROOT } from '../../../../shared/repository';

export { CHROMIUM_PATH };
export const ORIGIN = 'https://conversation-harness.test';
export const DIST_WEBVIEW = path.resolve(REPOSITORY_ROOT, 'dist', 'webview');
const NONCE = 'aGFybmVzcy1ub25jZS0xMjM0NTY';

/** For the benches, which skip quietly; the test suites use `requireChromium` (test/shared/chromium.ts). */
export function hasChromium(): boolean {
  return chromiumVerdict() === 'run';
}

export function hasBundle(dir = DIST_WEBVIEW): boolean {
  return existsSync(path.join(dir, 'conversation.js')) && existsSync(path.join(dir, 'conversation.css'));
}

const ROOT = REPOSITORY_ROOT;

/**
 * Builds the pages from the sources into a fresh folder (as esbuild.mjs builds dist/webview, with the
 * codicons next to it), so the tests run the code they test whatever dist/ holds.
 */
export async function buildPage(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'conversation-page-'));
  await esbuild.build({ ...pageBuildOptions({ outdir: dir, root: ROOT }), logLevel: 'silent' });
  for (const file of ['codicon.css', 'codicon.ttf'])
    copyFileSync(path.join(ROOT, 'node_modules/@vscode/codicons/dist', file), path.join(dir, file));
  return dir;
}

export type ThemeKind = 'light' | 'dark' | 'hc';

const FONTS: Record<string, string> = {
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'editor-font-size': '14px',
  'editor-font-weight': 'normal',
};

/** Colours of VS Code's Light Modern, Dark Modern and Dark High Contrast themes (the ones used here). */
const THEMES: Record<ThemeKind, Record<string, string>> = {
  light: {
    foreground: '#3b3b3b',
    descriptionForeground: '#717171',
    errorForeground: '#f85149',
    focusBorder: '#005fb8',
    'icon-foreground': '#3b3b3b',
    'widget-border': '#e5e5e5',
    'widget-shadow': 'rgba(0, 0, 0, 0.16)',
    'editor-background': '#ffffff',
    'editor-foreground': '#3b3b3b',
    'editorWidget-background': '#f8f8f8',
    'editorCursor-foreground': '#000000',
    'panel-border': '#e5e5e5',
    'textLink-foreground': '#005fb8',
    'textLink-activeForeground': '#005fb8',
    'textPreformat-foreground': '#3b3b3b',
    'textPreformat-background': 'rgba(0, 0, 0, 0.08)',
    'textCodeBlock-background': 'rgba(220, 220, 220, 0.4)',
    'textBlockQuote-background': '#f8f8f8',
    'textBlockQuote-border': '#e5e5e5',
    'button-background': '#005fb8',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#0258a8',
    'button-border': 'rgba(0, 0, 0, 0.1)',
    'button-secondaryBackground': '#e5e5e5',
    'button-secondaryForeground': '#3b3b3b',
    'button-secondaryHoverBackground': '#cccccc',
    'badge-background': '#cccccc',
    'badge-foreground': '#3b3b3b',
    'progressBar-background': '#005fb8',
    'diffEditor-insertedTextBackground': 'rgba(156, 204, 44, 0.25)',
    'diffEditor-removedTextBackground': 'rgba(255, 0, 0, 0.2)',
    'diffEditor-insertedLineBackground': 'rgba(155, 185, 85, 0.2)',
    'diffEditor-removedLineBackground': 'rgba(255, 0, 0, 0.2)',
    'testing-iconFailed': '#f14c4c',
    'testing-iconPassed': '#388a34',
    'editorInfo-foreground': '#1a85ff',
    'editorWarning-foreground': '#bf8803',
    'editorError-foreground': '#e51400',
    'gitDecoration-addedResourceForeground': '#587c0c',
    'gitDecoration-deletedResourceForeground': '#ad0707',
    'scrollbarSlider-background': 'rgba(100, 100, 100, 0.4)',
    'scrollbarSlider-hoverBackground': 'rgba(100, 100, 100, 0.7)',
    'scrollbarSlider-activeBackground': 'rgba(0, 0, 0, 0.6)',
  },
  dark: {
    foreground: '#cccccc',
    descriptionForeground: '#9d9d9d',
    errorForeground: '#f85149',
    focusBorder: '#0078d4',
    'icon-foreground': '#cccccc',
    'widget-border': '#313131',
    'widget-shadow': 'rgba(0, 0, 0, 0.36)',
    'editor-background': '#1f1f1f',
    'editor-foreground': '#cccccc',
    'editorWidget-background': '#202020',
    'editorCursor-foreground': '#aeafad',
    'panel-border': '#2b2b2b',
    'textLink-foreground': '#4daafc',
    'textLink-activeForeground': '#4daafc',
    'textPreformat-foreground': '#d0d0d0',
    'textPreformat-background': '#3c3c3c',
    'textCodeBlock-background': 'rgba(10, 10, 10, 0.4)',
    'textBlockQuote-background': '#2b2b2b',
    'textBlockQuote-border': '#616161',
    'button-background': '#0078d4',
    'button-foreground': '#ffffff',
    'button-hoverBackground': '#026ec1',
    'button-border': 'rgba(255, 255, 255, 0.07)',
    'button-secondaryBackground': '#313131',
    'button-secondaryForeground': '#cccccc',
    'button-secondaryHoverBackground': '#3c3c3c',
    'badge-background': '#616161',
    'badge-foreground': '#f8f8f8',
    'progressBar-background': '#0078d4',
    'diffEditor-insertedTextBackground': 'rgba(156, 204, 44, 0.2)',
    'diffEditor-removedTextBackground': 'rgba(255, 0, 0, 0.2)',
    'diffEditor-insertedLineBackground': 'rgba(155, 185, 85, 0.2)',
    'diffEditor-removedLineBackground': 'rgba(255, 0, 0, 0.2)',
    'testing-iconFailed': '#f14c4c',
    'testing-iconPassed': '#73c991',
    'editorInfo-foreground': '#3794ff',
    'editorWarning-foreground': '#cca700',
    'editorError-foreground': '#f14c4c',
    'gitDecoration-addedResourceForeground': '#81b88b',
    'gitDecoration-deletedResourceForeground': '#c74e39',
    'scrollbarSlider-background': 'rgba(121, 121, 121, 0.4)',
    'scrollbarSlider-hoverBackground': 'rgba(100, 100, 100, 0.7)',
    'scrollbarSlider-activeBackground': 'rgba(191, 191, 191, 0.4)',
  },
  hc: {
    foreground: '#ffffff',
    descriptionForeground: 'rgba(255, 255, 255, 0.7)',
    errorForeground: '#f48771',
    focusBorder: '#f38518',
    contrastBorder: '#6fc3df',
    contrastActiveBorder: '#f38518',
    'icon-foreground': '#ffffff',
    'widget-border': '#6fc3df',
    'editor-background': '#000000',
    'editor-foreground': '#ffffff',
    'editorWidget-background': '#0c141f',
    'editorCursor-foreground': '#ffffff',
    'panel-border': '#6fc3df',
    'textLink-foreground': '#21a6ff',
    'textLink-activeForeground': '#21a6ff',
    'textPreformat-foreground': '#ffffff',
    'textCodeBlock-background': '#000000',
    'textBlockQuote-border': '#ffffff',
    'button-background': '#000000',
    'button-foreground': '#ffffff',
    'button-border': '#6fc3df',
    'button-secondaryBackground': '#000000',
    'button-secondaryForeground': '#ffffff',
    'badge-background': '#000000',
    'badge-foreground': '#ffffff',
    'progressBar-background': '#6fc3df',
    'diffEditor-insertedTextBorder': '#33ff2e',
    'diffEditor-removedTextBorder': '#ff008f',
    'testing-iconFailed': '#f48771',
    'testing-iconPassed': '#73c991',
    'editorInfo-foreground': '#3794ff',
    'editorWarning-foreground': '#ffd370',
    'editorError-foreground': '#f48771',
    'gitDecoration-addedResourceForeground': '#a1e3ad',
    'gitDecoration-deletedResourceForeground': '#c74e39',
    'scrollbarSlider-background': 'rgba(111, 195, 223, 0.6)',
    'scrollbarSlider-hoverBackground': 'rgba(111, 195, 223, 0.8)',
    'scrollbarSlider-activeBackground': '#6fc3df',
  },
};

/** VS Code's default webview styles (webview/browser/pre/index.html), which come before the page's. */
const DEFAULT_STYLES = `
html { scrollbar-color: var(--vscode-scrollbarSlider-background) var(--vscode-editor-background); }
body { overscroll-behavior-x: none; background-color: transparent; color: var(--vscode-editor-foreground);
  font-family: var(--vscode-font-family); font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size);
  margin: 0; padding: 0 20px; }
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
a:hover { color: var(--vscode-textLink-activeForeground); }
a:focus, input:focus, select:focus, textarea:focus { outline: 1px solid -webkit-focus-ring-color; outline-offset: -1px; }
code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground);
  background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
::-webkit-scrollbar { width: 10px; height: 10px; }
::-webkit-scrollbar-corner { background-color: var(--vscode-editor-background); }
::-webkit-scrollbar-thumb { background-color: var(--vscode-scrollbarSlider-background); }
::-webkit-scrollbar-thumb:hover { background-color: var(--vscode-scrollbarSlider-hoverBackground); }
::-webkit-scrollbar-thumb:active { background-color: var(--vscode-scrollbarSlider-activeBackground); }
`;

export function themeCss(theme: ThemeKind): string {
  const variables = [
    ...Object.entries(FONTS).map(([name, value]) => `  --vscode-${name}: ${value};`),
    ...Object.entries(THEMES[theme]).map(([name, value]) => `  --vscode-${name}: ${value};`),
  ];
  return `:root {\n${variables.join('\n')}\n}\n${DEFAULT_STYLES}`;
}

const BODY_CLASS: Record<ThemeKind, string> = {
  light: 'vscode-light',
  dark: 'vscode-dark',
  hc: 'vscode-high-contrast',
};

/**
 * What VS Code puts around the page: the recording `acquireVsCodeApi` (once per page, like VS Code),
 * the body's theme class, and listeners that keep CSP violations and errors for the tests.
 */
function shimScript(theme: ThemeKind, initialState: unknown): string {
  return `(() => {
  const harness = { posted: [], states: [], violations: [], errors: [], acquired: 0 };
  let state = ${JSON.stringify(initialState ?? null)} ?? undefined;
  window.__harness = harness;
  document.body.classList.add(${JSON.stringify(BODY_CLASS[theme])});
  document.body.dataset.vscodeThemeKind = ${JSON.stringify(BODY_CLASS[theme])};
  document.addEventListener('securitypolicyviolation', (e) => harness.violations.push(e.violatedDirective + ' ' + e.blockedURI));
  window.addEventListener('error', (e) => harness.errors.push(String(e.message)));
  window.acquireVsCodeApi = () => {
    harness.acquired++;
    if (harness.acquired > 1) throw new Error('An instance of the VS Code API has already been acquired');
    return {
      postMessage: (message) => harness.posted.push(JSON.parse(JSON.stringify(message))),
      getState: () => state,
      setState: (value) => { state = JSON.parse(JSON.stringify(value)); harness.states.push(state); return value; },
    };
  };
})();`;
}

export function harnessHtml(): string {
  return webviewDocument({
    cspSource: ORIGIN,
    nonce: NONCE,
    scriptUri: `${ORIGIN}/conversation.js`,
    stylesheets: [
      { href: `${ORIGIN}/theme.css` },
      { href: `${ORIGIN}/codicon.css`, id: 'vscode-codicon-stylesheet' },
      { href: `${ORIGIN}/conversation.css` },
    ],
    title: 'OpenHands Conversation',
    lang: 'en',
    body: `<script nonce="${NONCE}" src="${ORIGIN}/harness.js"></script>\n<main id="app" aria-busy="true"></main>`,
    // as host/panel.ts builds it: images only from blob: URLs the page makes of checked bytes
    blobImages: true,
  });
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.map': 'application/json',
};

export interface HarnessOptions {
  theme?: ThemeKind;
  width?: number;
  height?: number;
  /** What `getState` returns at first (what VS Code kept from an earlier load). */
  initialState?: unknown;
  /** A browser to open the page in (closed by the caller); one is launched otherwise. */
  browser?: Browser;
  /** Where the built page is (`buildPage()`); dist/webview otherwise. */
  dir?: string;
}

export interface Harness {
  page: Page;
  browser: Browser;
  /** Requests to anywhere but the harness's own files (none are expected). */
  foreignRequests: string[];
  /** Delivers a host message to the page, as VS Code does. */
  post(message: HostToWebview | unknown): Promise<void>;
  /** What the page posted, in order. */
  posted(): Promise<WebviewToHost[]>;
  close(): Promise<void>;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export async function openHarness(options: HarnessOptions = {}): Promise<Harness> {
  const theme = options.theme ?? 'dark';
  const browser = options.browser ?? (await launchChromium());
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1000, height: options.height ?? 720 },
    deviceScaleFactor: 1,
  });
  // tsx (esbuild's keepNames) wraps the functions handed to page.evaluate in __name(…)
  await context.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  const page = await context.newPage();
  const foreignRequests: string[] = [];
  // everything else is refused (and noted): the page must load nothing from anywhere
  await page.route('**/*', (route) => {
    foreignRequests.push(route.request().url());
    return route.abort();
  });
  await page.route(`${ORIGIN}/**`, (route) => {
    const url = new URL(route.request().url());
    const name = url.pathname.slice(1);
    if (name === 'index.html') return route.fulfill({ contentType: 'text/html', body: harnessHtml() });
    if (name === 'harness.js')
      return route.fulfill({ contentType: 'text/javascript', body: shimScript(theme, options.initialState) });
    if (name === 'theme.css') return route.fulfill({ contentType: 'text/css', body: themeCss(theme) });
    const file = path.join(options.dir ?? DIST_WEBVIEW, path.basename(name));
    if (!/^[\w.-]+$/.test(name) || !existsSync(file)) return route.fulfill({ status: 404, body: '' });
    return route.fulfill({
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
      body: readFileSync(file),
    });
  });
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForFunction(() =>
    (window as unknown as HarnessWindow).__harness.posted.some((m) => m.type === 'ready'),
  );
  return {
    page,
    browser,
    foreignRequests,
    post: (message) => page.evaluate((m) => window.postMessage(m, '*'), message as HostToWebview),
    posted: () => page.evaluate(() => (window as unknown as HarnessWindow).__harness.posted),
    close: async () => {
      await context.close();
      if (!options.browser) await browser.close();
    },
  };
}

/** What the shim puts on the page's window. */
export interface HarnessWindow {
  __harness: {
    posted: WebviewToHost[];
    states: unknown[];
    violations: string[];
    errors: string[];
    acquired: number;
  };
}
