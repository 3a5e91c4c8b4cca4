import type { FastifyInstance, FastifyReply } from 'fastify';
import { check, fieldsOf, queryOf, type ApiDeps } from './api-context';
import { guard } from './api-guard';
import { decodeToken, encodeToken, maxResults, numericId, str } from './api-params';
import { TWEET_EXPANSIONS } from './fields';
import { tweetsPayload, userObject } from './serialize';
import type { World } from './world';
import type { SimPost } from './world-types';
import { invalidRequest, problem } from './x-errors';

const READ = { scopes: ['tweet.read', 'users.read'] };

/** Why a post cannot be shown, as X's partial error for `parameter`, or undefined when it can. */
export function hiddenPostProblem(world: World, id: string, parameter: string) {
  const post = world.post(id);
  const author = post ? world.user(post.authorId) : undefined;
  if (!post || !author || !world.isLive(post)) return problem('not-found', 'tweet', parameter, id);
  if (author.suspended)
    return problem('not-found', 'tweet', parameter, id, `User has been suspended: [${author.id}].`);
  if (author.protected) return problem('not-authorized', 'tweet', parameter, id);
  if (!world.isVisible(post)) return problem('not-found', 'tweet', parameter, id);
  return undefined;
}

/** A page of a list by offset, with X's meta. */
export function pageOf<T>(items: T[], offset: number, size: number) {
  const slice = items.slice(offset, offset + size);
  const more = offset + size < items.length;
  return {
    slice,
    meta: { result_count: slice.length, ...(more ? { next_token: encodeToken(offset + size) } : {}) },
  };
}

/** Page parameters of list endpoints: max_results within X's bounds and our offset token. */
export function pageParams(reply: FastifyReply, q: Record<string, unknown>, min: number, fallback: number) {
  const max = maxResults(q, min, 100, fallback);
  if (!check(reply, max)) return undefined;
  const token = decodeToken('pagination_token', str(q, 'pagination_token'), 'offset');
  if (!check(reply, token)) return undefined;
  return { max: max.value, offset: token.value ?? 0 };
}

/** Tweet lookup, reposters and quotes (https://docs.x.com/x-api/posts/lookup/introduction). */
export function registerTweetRoutes(app: FastifyInstance, deps: ApiDeps) {
  app.get('/2/tweets', async (request, reply) => {
    const { world } = deps;
    const admitted = await guard(deps, request, reply, 'tweets', READ);
    if (!admitted) return;
    const q = queryOf(request, reply, ['ids']);
    if (!q) return;
    const ids = (str(q, 'ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0)
      return invalidRequest(reply, 'The `ids` query parameter can not be empty', { ids: [''] });
    if (ids.length > 100)
      return invalidRequest(
        reply,
        `The number of values (${ids.length}) in the \`ids\` query parameter list [${ids.length}] is not between 1 and 100`,
        { ids: [str(q, 'ids') ?? ''] },
      );
    const bad = ids.find((id) => !/^\d{1,19}$/.test(id));
    if (bad !== undefined)
      return invalidRequest(
        reply,
        `The \`ids\` query parameter value [${bad}] does not match ^[0-9]{1,19}$`,
        {
          ids: [bad],
        },
      );
    const fields = fieldsOf(reply, q, TWEET_EXPANSIONS);
    if (!fields) return;
    const found: SimPost[] = [];
    const errors: unknown[] = [];
    let showable = 0;
    for (const id of ids) {
      const hidden = hiddenPostProblem(world, id, 'ids');
      // A partial-errors fault reports every second post it could show as not found.
      if (hidden) errors.push(hidden);
      else if (admitted.partial && showable++ % 2 === 1)
        errors.push(problem('not-found', 'tweet', 'ids', id));
      else found.push(world.post(id) as SimPost);
    }
    const body = tweetsPayload(world, found, fields, deps.baseUrl(request));
    if (errors.length > 0) body.errors = errors;
    return reply.send(body);
  });

  app.get('/2/tweets/:id/retweeted_by', async (request, reply) => {
    const { world } = deps;
    if (!(await guard(deps, request, reply, 'retweeted_by', READ))) return;
    const q = queryOf(request, reply, ['max_results', 'pagination_token']);
    if (!q) return;
    const { id } = request.params as { id: string };
    if (!check(reply, numericId('id', id))) return;
    const page = pageParams(reply, q, 1, 100);
    if (!page) return;
    const fields = fieldsOf(reply, q, new Set(['pinned_tweet_id']));
    if (!fields) return;
    const hidden = hiddenPostProblem(world, id, 'id');
    if (hidden) return reply.send({ errors: [hidden] });
    const users = world.repostersOf(id).flatMap((uid) => {
      const user = world.user(uid);
      return user && !user.suspended ? [user] : [];
    });
    const { slice, meta } = pageOf(users, page.offset, page.max);
    const base = deps.baseUrl(request);
    return reply.send({
      ...(slice.length ? { data: slice.map((u) => userObject(world, u, fields.user, base)) } : {}),
      meta,
    });
  });

  app.get('/2/tweets/:id/quote_tweets', async (request, reply) => {
    const { world } = deps;
    if (!(await guard(deps, request, reply, 'quote_tweets', READ))) return;
    const q = queryOf(request, reply, ['max_results', 'pagination_token', 'exclude']);
    if (!q) return;
    const { id } = request.params as { id: string };
    if (!check(reply, numericId('id', id))) return;
    const page = pageParams(reply, q, 10, 10);
    if (!page) return;
    const fields = fieldsOf(reply, q, TWEET_EXPANSIONS);
    if (!fields) return;
    const hidden = hiddenPostProblem(world, id, 'id');
    if (hidden) return reply.send({ errors: [hidden] });
    const { slice, meta } = pageOf(world.quotesOf(id), page.offset, page.max);
    return reply.send({ ...tweetsPayload(world, slice, fields, deps.baseUrl(request)), meta });
  });
}
