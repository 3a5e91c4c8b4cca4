import type { FastifyInstance } from 'fastify';

/** The success envelope of the referral service (SPEC §7): `{ok: true, data, error: null}`. */
export function okReply<T>(data: T): { ok: true; data: T; error: null } {
  return { ok: true, data, error: null };
}

/** Answers of the plugin's routes are about one browser: never stored by a browser cache or a proxy. */
export function noStore(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply) => {
    void reply.header('Cache-Control', 'no-store');
  });
}
