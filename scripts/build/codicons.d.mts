// Types of codicons.mjs, which esbuild.mjs (plain JavaScript) imports and the unit tests check.
export function codiconsNamedIn(text: string, names: readonly string[]): Set<string>;
export function writeCodicons(options: {
  pages: readonly string[];
  outDir: string;
}): Promise<{ icons: number; of: number; fontBytes: number }>;
