// Types of pages.mjs, which esbuild.mjs (plain JavaScript) imports and the page tests use.
import type { BuildOptions } from 'esbuild';
export function pageBuildOptions(options: {
  outdir: string;
  production?: boolean;
  root?: string;
}): BuildOptions;
