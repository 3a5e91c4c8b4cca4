import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** At debug and trace every request is logged (Fastify's own two lines); above that, only what follows. */
export function logsEveryRequest(level: Level): boolean {
  return level === 'debug' || level === 'trace';
}

/**
 * Fastify's request log lines without a line per hit: a request that failed while answering is logged at error
 * (errors a handler throws are logged by the error handler), one slower than `slowMs` at warn, and a random
 * `sampleRate` share of the rest at info, so an operator still sees what traffic looks like. No hook is added:
 * Fastify calls this where it would write its own lines. The lines use logger.ts's serialisers, so secrets
 * stay censored.
 */
class QuietRequestLog extends LogController {
  constructor(private readonly options: { slowMs: number; sampleRate: number }) {
    super();
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const responseTime = reply.elapsedTime;
    if (error) {
      reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    } else if (responseTime >= this.options.slowMs) {
      reply.log.warn({ req: request, res: reply, responseTime }, 'slow request');
    } else if (this.options.sampleRate > 0 && Math.random() < this.options.sampleRate) {
      reply.log.info({ req: request, res: reply, responseTime }, 'request completed (sample)');
    }
  }
}

/** The Fastify `logController` option: ours below debug; none (Fastify logs every request) at debug and trace. */
export function requestLogController(options: {
  level: Level;
  slowMs: number;
  sampleRate: number;
}): LogController | undefined {
  return logsEveryRequest(options.level) ? undefined : new QuietRequestLog(options);
}
