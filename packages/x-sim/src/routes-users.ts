import type { FastifyInstance } from 'fastify';
import { check, fieldsOf, queryOf, type ApiDeps } from './api-context';
import { guard } from './api-guard';
import { numericId } from './api-params';
import { avatarSvg } from './avatar';
import { TWEET_EXPANSIONS, USER_EXPANSIONS } from './fields';
import { pageOf, pageParams } from './routes-tweets';
import { tweetsPayload, userObject } from './serialize';
import { HANDLE } from './world-users';
import { forbidden, invalidRequest, problem } from './x-errors';

/** Likes, users by handle, the signed-in user, and the generated avatars (https://docs.x.com/x-api/users/lookup/introduction). */
export function registerUserRoutes(app: FastifyInstance, deps: ApiDeps) {
  app.get('/2/users/:id/liked_tweets', async (request, reply) => {
    const { world } = deps;
    const admitted = await guard(deps, request, reply, 'liked_tweets', {
      scopes: ['tweet.read', 'users.read', 'like.read'],
      userOnly: true,
    });
    if (!admitted) return;
    const q = queryOf(request, reply, ['max_results', 'pagination_token']);
    if (!q) return;
    const { id } = request.params as { id: string };
    if (!check(reply, numericId('id', id))) return;
    const page = pageParams(reply, q, 10, 100);
    if (!page) return;
    const fields = fieldsOf(reply, q, TWEET_EXPANSIONS);
    if (!fields) return;
    // Likes are private since 2024: only the member's own token reads them.
    if (admitted.caller.kind !== 'user' || admitted.caller.grant.userId !== id)
      return forbidden(reply, 'You can only see your own likes.');
    const liked = world.likedBy(id).filter((p) => world.isVisible(p));
    const { slice, meta } = pageOf(liked, page.offset, page.max);
    return reply.send({ ...tweetsPayload(world, slice, fields, deps.baseUrl(request)), meta });
  });

  app.get('/2/users/by/username/:username', async (request, reply) => {
    const { world } = deps;
    if (!(await guard(deps, request, reply, 'users/by/username', { scopes: ['tweet.read', 'users.read'] })))
      return;
    const q = queryOf(request, reply, []);
    if (!q) return;
    const { username } = request.params as { username: string };
    if (!HANDLE.test(username)) {
      return invalidRequest(
        reply,
        `The \`username\` query parameter value [${username}] does not match ^[A-Za-z0-9_]{1,15}$`,
        { username: [username] },
      );
    }
    const fields = fieldsOf(reply, q, USER_EXPANSIONS);
    if (!fields) return;
    const user = world.userByUsername(username);
    if (!user) return reply.send({ errors: [problem('not-found', 'user', 'username', username)] });
    if (user.suspended) {
      const detail = `User has been suspended: [${username}].`;
      return reply.send({ errors: [problem('not-found', 'user', 'username', username, detail)] });
    }
    return reply.send({ data: userObject(world, user, fields.user, deps.baseUrl(request)) });
  });

  app.get('/2/users/me', async (request, reply) => {
    const { world } = deps;
    const admitted = await guard(deps, request, reply, 'users/me', {
      scopes: ['tweet.read', 'users.read'],
      userOnly: true,
    });
    if (!admitted || admitted.caller.kind !== 'user') return;
    const q = queryOf(request, reply, []);
    if (!q) return;
    const fields = fieldsOf(reply, q, USER_EXPANSIONS);
    if (!fields) return;
    const user = world.user(admitted.caller.grant.userId);
    if (!user)
      return reply.send({ errors: [problem('not-found', 'user', 'id', admitted.caller.grant.userId)] });
    return reply.send({ data: userObject(world, user, fields.user, deps.baseUrl(request)) });
  });

  app.get('/avatars/:file', async (request, reply) => {
    const { world } = deps;
    const { file } = request.params as { file: string };
    const user = /^\d{1,19}\.svg$/.test(file) ? world.user(file.slice(0, -4)) : undefined;
    if (!user) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    return reply
      .type('image/svg+xml')
      .header('Cache-Control', 'public, max-age=86400')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(avatarSvg(user));
  });
}
