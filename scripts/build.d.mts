// Types of build.mjs for the TypeScript that uses it (the server-bundle e2e test).
export const repoRoot: string;
export const serverDir: string;
export const commands: string[];
export function buildHash(name: 'web' | 'server', versions?: NodeJS.ProcessVersions): string;
export function buildIfNeeded(names: string[], log?: (line: string) => void): Promise<string[]>;
