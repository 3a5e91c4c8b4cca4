import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendFailure } from './error-handler';
import { routeFamilyOf } from './route-families';

/** Client-side routes of the SPA (SPEC §2) that answer with index.html. */
export const spaRoutes = ['/', '/r/:handle', '/auth/callback', '/linked'] as const;

const immutable = 'public, max-age=31536000, immutable';

function cacheControlFor(filePath: string): string {
  if (filePath.endsWith('index.html')) return 'no-cache';
  // Vite puts content-hashed files under assets/: they never change under the same name.
  if (filePath.includes(`${path.sep}assets${path.sep}`)) return immutable;
  return 'public, max-age=3600';
}

function wantsHtml(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    (request.headers.accept ?? '').includes('text/html')
  );
}

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, index.html for the SPA's
 * routes, JSON 404s for unknown API paths. Without a build, page routes say how to build it.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  const built = fs.existsSync(indexFile);

  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      prefix: '/',
      index: false,
      wildcard: true,
      cacheControl: false,
      dotfiles: 'deny',
      setHeaders: (reply, filePath) => {
        void reply.header('Cache-Control', cacheControlFor(filePath));
      },
    });
  }

  const sendIndex = (reply: FastifyReply, status = 200) => {
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
    }
    return reply.code(status).header('Cache-Control', 'no-cache').sendFile('index.html');
  };

  for (const route of spaRoutes) {
    app.get(route, (_request, reply) => sendIndex(reply));
  }

  app.setNotFoundHandler((request, reply) => {
    if (routeFamilyOf(request.url) === 'other' && wantsHtml(request)) return sendIndex(reply, 404);
    const pathOnly = request.url.split('?')[0] ?? '';
    return sendFailure(request, reply, {
      status: 404,
      code: 'NOT_FOUND',
      message: `Route ${request.method} ${pathOnly.slice(0, 200)} not found`,
    });
  });
}
