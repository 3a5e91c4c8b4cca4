// Types of build-lib.mjs for the TypeScript that uses it (the second-process e2e test).
export function hashSources(root: string, inputs: string[], salt?: string): string;
export function currentBuild(appDir: string): string | undefined;
export function isBuilt(appDir: string, hash: string): boolean;
export function ensureBuild(
  appDir: string,
  hash: string,
  build: (outDir: string) => Promise<void>,
): Promise<void>;
