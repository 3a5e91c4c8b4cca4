/**
 * The environment a child process starts with: this process's own (PATH, HOME, the operator's settings) with
 * `extra` on top. Reading process.env is config/'s alone, so the server's tools (pg_dump) and the test helpers
 * that start processes (the CLI, npm, the server in e2e) get it here.
 */
export function childProcessEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

/**
 * Sets a variable for a library of this process that reads its settings from the environment itself (the local
 * AT Protocol network's Redis host), unless the environment already names one.
 */
export function defaultEnvVariable(name: string, value: string): void {
  process.env[name] ??= value;
}
