// Types of host.mjs, which esbuild.mjs (plain JavaScript) imports and the bundle test uses.
import type { BuildOptions } from 'esbuild';
export function hostBuildOptions(options: {
  outdir: string;
  production?: boolean;
  root?: string;
}): BuildOptions;
