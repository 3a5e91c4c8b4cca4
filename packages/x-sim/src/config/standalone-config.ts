import { z } from 'zod';

/** Raised when the standalone simulation's environment is invalid; the message names each bad variable. */
export class StandaloneConfigError extends Error {
  override name = 'StandaloneConfigError';
}

const envSchema = z.object({
  X_SIM_PORT: z.coerce.number().int().min(0).max(65535).default(4100),
  X_SIM_HOST: z.string().min(1).default('127.0.0.1'),
  X_SIM_SEED: z.coerce.number().int().default(42),
  X_SIM_REDIRECT_URIS: z
    .string()
    .default('http://localhost:3000/auth/twitter/callback')
    .transform((value) =>
      value
        .split(',')
        .map((uri) => uri.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ protocol: /^https?$/ })).min(1, 'at least one callback URL')),
});

export type StandaloneConfig = { port: number; host: string; seed: number; redirectUris: string[] };

/**
 * The configuration of `npm run x-sim` (the simulation as its own program), parsed once from the environment;
 * empty variables count as unset.
 */
export function loadStandaloneConfig(
  env: Record<string, string | undefined> = process.env,
): StandaloneConfig {
  const given = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new StandaloneConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  return { port: e.X_SIM_PORT, host: e.X_SIM_HOST, seed: e.X_SIM_SEED, redirectUris: e.X_SIM_REDIRECT_URIS };
}
