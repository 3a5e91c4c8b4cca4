import type { FastifyPluginAsync } from 'fastify';
import { CLIENT_METADATA_PATH, JWKS_PATH, type BlueskyOAuth } from './bluesky-oauth-client';

/**
 * A confidential client publishes who it is: its metadata document (whose URL is its client_id) and its public
 * keys. Authorization servers fetch both; only the public half of the key ever leaves the server.
 */
export const blueskyOAuthRoutes: FastifyPluginAsync<{ oauth: BlueskyOAuth }> = async (app, { oauth }) => {
  const { metadata } = oauth;
  if (!metadata) return;
  const cache = 'public, max-age=600';
  app.get(CLIENT_METADATA_PATH, async (_request, reply) =>
    reply.header('Cache-Control', cache).send(metadata),
  );
  app.get(JWKS_PATH, async (_request, reply) => reply.header('Cache-Control', cache).send(oauth.client.jwks));
};
