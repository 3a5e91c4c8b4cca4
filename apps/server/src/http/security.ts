import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config/config';

type SecurityConfig = Pick<
  Config,
  'videoFrameOrigins' | 'makerFrameOrigins' | 'imageOrigins' | 'corsOrigins' | 'publicOrigin'
> & { x: Pick<Config['x'], 'mode'> };

/** X's embed (the Posts grid with real X): its script and the post frames it draws (images load inside them). */
const X_EMBED_ORIGINS = ['https://platform.twitter.com', 'https://syndication.twitter.com'];

/**
 * The Content-Security-Policy written for this app: scripts and styles only from our own origin (the Vite
 * build has no inline script), frames only from the configured video and maker origins, nothing from CDNs.
 * With real X, X's embed script and frames are allowed too (SPEC §7, embedded content); the simulation shows
 * native post cards and allows nothing of X's.
 */
export function contentSecurityPolicy(config: SecurityConfig): Record<string, string[]> {
  const xEmbed = config.x.mode === 'real' ? X_EMBED_ORIGINS : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...xEmbed],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', ...config.imageOrigins],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'media-src': ["'self'"],
    'frame-src': ["'self'", ...config.videoFrameOrigins, ...config.makerFrameOrigins, ...xEmbed],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    // Our own pages (the built-in maker) may be framed by the app itself, nobody else.
    'frame-ancestors': ["'self'"],
  };
}

type Headers = Record<string, string>;

/** helmet's headers for our options, computed once (@fastify/helmet rebuilt its middleware on every request). */
function helmetHeaders(config: SecurityConfig): Headers {
  const headers: Headers = {};
  const recorder = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
    removeHeader: () => undefined,
  };
  const middleware = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // YouTube's embed needs the referring origin; strict-origin-when-cross-origin sends only the origin.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Images of ours (avatars, art) may be shown by the operator's other sites.
    crossOriginResourcePolicy: { policy: 'same-site' },
    strictTransportSecurity: config.publicOrigin.startsWith('https:'),
  });
  middleware({} as never, recorder as never, () => undefined);
  return headers;
}

/**
 * The headers that still mean something on a JSON answer: no MIME sniffing (JSON is never run as a script or
 * page), the cross-origin read policy, and HSTS over https. CSP, framing, referrer and the like act only on
 * documents, so JSON does not carry them.
 */
const JSON_HEADERS = ['x-content-type-options', 'cross-origin-resource-policy', 'strict-transport-security'];

/** The headers for a response of this type: JSON gets the short list, everything else (HTML, assets) all. */
export function securityHeaders(config: SecurityConfig): { json: Headers; other: Headers } {
  const other = helmetHeaders(config);
  const json = Object.fromEntries(Object.entries(other).filter(([name]) => JSON_HEADERS.includes(name)));
  return { json, other };
}

/** Security headers (the full set on pages and assets, the meaningful ones on JSON) and the CORS allowlist. */
export async function registerSecurity(app: FastifyInstance, config: SecurityConfig): Promise<void> {
  const { json, other } = securityHeaders(config);
  const jsonEntries = Object.entries(json);
  app.decorate('jsonSecurityHeaders', jsonEntries);
  const otherEntries = Object.entries(other);
  app.addHook('onSend', (_request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    const entries =
      typeof type === 'string' && type.startsWith('application/json') ? jsonEntries : otherEntries;
    // A route's own stricter choice stands (the OAuth return sends `Referrer-Policy: no-referrer`, as its URL
    // carries the authorization code).
    for (const [name, value] of entries) if (!reply.hasHeader(name)) reply.header(name, value);
    done(null, payload);
  });
  const allowed = new Set([config.publicOrigin, ...config.corsOrigins]);
  await app.register(cors, {
    // Only a request that names an Origin is a CORS request: one without (same-origin reads, curl, probes) gets
    // no CORS headers, as they would mean nothing to it (Vary: Origin still goes on every answer, for caches).
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'X-User-Id', 'X-CSRF-Token'],
    exposedHeaders: ['Retry-After', 'ETag'],
    maxAge: 600,
  });
}
