import type { FastifyInstance } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** At debug and trace every request is logged (Fastify's own two lines); above that, only what follows. */
export function logsEveryRequest(level: Level): boolean {
  return level === 'debug' || level === 'trace';
}

/**
 * Request logging without a line per hit: errors are logged by the error handler; here, requests slower than
 * `slowMs` at warn, and a random `sampleRate` share of the rest at info, so an operator still sees what traffic
 * looks like. The lines carry the request serialiser of logger.ts, so secrets stay censored.
 */
export function registerRequestLog(
  app: FastifyInstance,
  options: { level: Level; slowMs: number; sampleRate: number },
): void {
  const everyRequest = logsEveryRequest(options.level);
  app.addHook('onResponse', (request, reply, done) => {
    const responseTime = reply.elapsedTime;
    if (responseTime >= options.slowMs) {
      request.log.warn({ req: request, res: reply, responseTime }, 'slow request');
    } else if (!everyRequest && options.sampleRate > 0 && Math.random() < options.sampleRate) {
      request.log.info({ req: request, res: reply, responseTime }, 'request completed (sample)');
    }
    done();
  });
}
