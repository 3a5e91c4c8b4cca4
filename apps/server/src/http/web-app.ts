import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendFailure } from './error-handler';
import { routeFamilyOf } from './route-families';

/** Client-side routes of the SPA (SPEC §2) that answer with index.html. */
export const spaRoutes = ['/', '/r/:handle', '/auth/callback', '/linked', '/admin', '/admin/*'] as const;

/** The main page's paths: the only ones whose first screen uses index.html's data preloads. */
const mainPageRoutes: ReadonlySet<string> = new Set(['/', '/r/:handle']);

/**
 * index.html's preloads of the main page's first-screen calls (`as="fetch"`, apps/web/src/app/first-screen.ts).
 * The auth-return and 404 pages get index.html without them: they would fetch data nothing there reads.
 */
const DATA_PRELOAD = /[ \t]*<link rel="preload"[^>]*\bas="fetch"[^>]*>\r?\n?/g;

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

/** index.html as served: whole for the main page, without the data preloads elsewhere. */
type IndexPages = { main: string; other: string; stamp: string };

function readIndex(indexFile: string): IndexPages | undefined {
  try {
    const stat = fs.statSync(indexFile);
    const html = fs.readFileSync(indexFile, 'utf8');
    return { main: html, other: html.replace(DATA_PRELOAD, ''), stamp: stampOf(stat) };
  } catch {
    return undefined;
  }
}

const stampOf = (stat: fs.Stats) => `${stat.ino}:${stat.size}:${stat.mtimeMs}`;

/** How often index.html is checked for a new build (a switched `dist` link or a rebuild in place). */
const INDEX_CHECK_MS = 1000;

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached, index.html for the SPA's
 * routes, JSON 404s for unknown API paths. Without a build, page routes say how to build it.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexFile = path.join(webDistDir, 'index.html');
  // Held in memory, not read per request; a check off the request path picks up a new build within a second
  // (`npm run build` switches the `dist` link atomically). While a build is missing or half-written in place,
  // the last good copy is served.
  let index = readIndex(indexFile);
  const check = setInterval(() => {
    fs.stat(indexFile, (error, stat) => {
      if (error || stampOf(stat) === index?.stamp) return;
      index = readIndex(indexFile) ?? index;
    });
  }, INDEX_CHECK_MS);
  check.unref();
  app.addHook('onClose', async () => clearInterval(check));

  if (fs.existsSync(webDistDir)) {
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

  const sendIndex = async (reply: FastifyReply, status = 200, mainPage = false) => {
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('The web app is not built yet. Run `npm run build` (npm start does it for you).');
    }
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(mainPage ? index.main : index.other);
  };

  for (const route of spaRoutes) {
    app.get(route, (_request, reply) => sendIndex(reply, 200, mainPageRoutes.has(route)));
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
