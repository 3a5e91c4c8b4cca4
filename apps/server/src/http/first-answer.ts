import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Resolves once `server` has sent its first answer, or after `maxWaitMs` when no request comes (issue 33): the
 * start's work that a first answer does not need (the worker and the demo's replay) waits for it, so the first
 * person or probe is answered by a server that is doing nothing else. One listener for the first request only,
 * removed with it: later requests pay nothing.
 */
export function firstAnswer(server: Server, maxWaitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      server.off('request', onRequest);
      resolve();
    };
    const onRequest = (_request: IncomingMessage, response: ServerResponse) => {
      server.off('request', onRequest);
      response.once('finish', done);
      response.once('close', done);
    };
    const timer = setTimeout(done, maxWaitMs);
    server.on('request', onRequest);
  });
}
