// Types of marketplaceReadme.mjs, which `npm run package` runs and the unit tests check.
export function marketplaceReadme(readme: string): string;
export function writeMarketplaceReadme(readmeFile: string, outFile: string): void;
