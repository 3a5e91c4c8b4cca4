import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthStore, SimClient } from './auth-store';
import { oauthError } from './x-errors';

/** The confidential client named by HTTP Basic auth (client id and secret), if the pair is right. */
function basicClient(request: FastifyRequest, clients: SimClient[]): SimClient | undefined {
  const header = request.headers.authorization ?? '';
  if (!/^Basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const sep = decoded.indexOf(':');
  if (sep < 0) return undefined;
  try {
    const id = decodeURIComponent(decoded.slice(0, sep));
    const secret = decodeURIComponent(decoded.slice(sep + 1));
    return clients.find(
      (c) => c.clientSecret !== undefined && c.clientId === id && c.clientSecret === secret,
    );
  } catch {
    return undefined;
  }
}

/** A public client (no secret) names itself with `client_id` in the body; PKCE is its only proof. */
function publicClient(clientId: string, clients: SimClient[]): SimClient | undefined {
  return clientId ? clients.find((c) => c.clientSecret === undefined && c.clientId === clientId) : undefined;
}

/**
 * `POST /2/oauth2/token` (authorization_code with the PKCE verifier; refresh_token, rotating) and
 * `POST /2/oauth2/revoke`, for confidential clients authenticated with Basic auth and public clients that send
 * their `client_id` in the body (https://docs.x.com/fundamentals/authentication/oauth-2-0/authorization-code).
 * A confidential client without its credentials is refused, as on X.
 */
export function registerTokenRoutes(app: FastifyInstance, deps: { clients: SimClient[]; auth: AuthStore }) {
  const { clients, auth } = deps;

  const authenticate = (request: FastifyRequest) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const field = (k: string) => (typeof body[k] === 'string' ? (body[k] as string) : '');
    const client = basicClient(request, clients) ?? publicClient(field('client_id'), clients);
    // A client_id in the body, if any, must name the same client as the Basic credentials.
    if (client && field('client_id') && field('client_id') !== client.clientId)
      return { client: undefined, field };
    return { client, field };
  };

  app.post('/2/oauth2/token', async (request, reply) => {
    const { client, field } = authenticate(request);
    if (!client) return oauthError(reply, 401, 'unauthorized_client', 'Missing valid authorization header');
    const grantType = field('grant_type');
    if (!grantType)
      return oauthError(reply, 400, 'invalid_request', 'Missing required parameter [grant_type].');
    if (grantType === 'authorization_code') {
      for (const name of ['code', 'redirect_uri', 'code_verifier']) {
        if (!field(name))
          return oauthError(reply, 400, 'invalid_request', `Missing required parameter [${name}].`);
      }
      const redeemed = auth.redeemCode(
        field('code'),
        client.clientId,
        field('redirect_uri'),
        field('code_verifier'),
      );
      if ('error' in redeemed) return oauthError(reply, 400, 'invalid_request', redeemed.error);
      return reply.header('Cache-Control', 'no-store').send(auth.issueTokens(redeemed.grant));
    }
    if (grantType === 'refresh_token') {
      const tokens = auth.refresh(field('refresh_token'), client.clientId);
      if (!tokens)
        return oauthError(reply, 400, 'invalid_request', 'Value passed for the token was invalid.');
      return reply.header('Cache-Control', 'no-store').send(tokens);
    }
    return oauthError(
      reply,
      400,
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token',
    );
  });

  app.post('/2/oauth2/revoke', async (request, reply) => {
    const { client, field } = authenticate(request);
    if (!client) return oauthError(reply, 401, 'unauthorized_client', 'Missing valid authorization header');
    if (!field('token'))
      return oauthError(reply, 400, 'invalid_request', 'Missing required parameter [token].');
    auth.revoke(field('token'), client.clientId);
    return reply.send({ revoked: true });
  });
}
