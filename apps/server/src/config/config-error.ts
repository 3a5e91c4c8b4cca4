/** Raised when the environment does not describe a runnable server; the message lists every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
