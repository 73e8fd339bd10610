// Types of packagesLeftOut.mjs, which esbuild.mjs (plain JavaScript) imports and the unit tests use.
import type { Plugin } from 'esbuild';
export const packagesLeftOut: Plugin;
export const wsClientAlias: Record<string, string>;
