import type { FastifyInstance } from 'fastify';
import { check, fieldsOf, queryOf, type ApiDeps } from './api-context';
import { guard } from './api-guard';
import { decodeToken, encodeToken, maxResults, numericId, str, time } from './api-params';
import { TWEET_EXPANSIONS } from './fields';
import { parseQuery, QueryError, type QueryNode } from './query';
import { searchRecent } from './search';
import { tweetsPayload } from './serialize';
import { compareIds, snowflake, snowflakeTime } from './snowflake';
import { invalidRequest } from './x-errors';

const SEVEN_DAYS_MS = 7 * 86_400_000;
/** X refuses an end_time less than 10 seconds before the request. */
const END_TIME_MARGIN_MS = 10_000;

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * `GET /2/tweets/search/recent` (https://docs.x.com/x-api/posts/search-recent-posts): the last 7 days of the
 * simulated clock, newest first, 10–100 a page, with since_id / until_id / start_time / end_time and
 * next_token / pagination_token.
 */
export function registerSearchRoute(app: FastifyInstance, deps: ApiDeps) {
  app.get('/2/tweets/search/recent', async (request, reply) => {
    const { world } = deps;
    if (!(await guard(deps, request, reply, 'search/recent', { scopes: ['tweet.read', 'users.read'] })))
      return;
    const q = queryOf(request, reply, [
      'query',
      'since_id',
      'until_id',
      'start_time',
      'end_time',
      'max_results',
      'next_token',
      'pagination_token',
      'sort_order',
    ]);
    if (!q) return;
    const raw = str(q, 'query') ?? '';
    let ast: QueryNode;
    try {
      ast = parseQuery(raw);
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      const prefix = raw.trim() ? 'There were errors processing your request: ' : '';
      return invalidRequest(reply, `${prefix}${error.message}`, { query: [raw] });
    }
    const max = maxResults(q, 10, 100, 10);
    if (!check(reply, max)) return;
    const sinceId = numericId('since_id', str(q, 'since_id'));
    if (!check(reply, sinceId)) return;
    const untilId = numericId('until_id', str(q, 'until_id'));
    if (!check(reply, untilId)) return;
    const start = time('start_time', str(q, 'start_time'));
    if (!check(reply, start)) return;
    const end = time('end_time', str(q, 'end_time'));
    if (!check(reply, end)) return;
    const tokenName = str(q, 'pagination_token') !== undefined ? 'pagination_token' : 'next_token';
    const token = decodeToken(tokenName, str(q, tokenName), 'id');
    if (!check(reply, token)) return;
    const sort = str(q, 'sort_order');
    if (sort !== undefined && sort !== 'recency' && sort !== 'relevancy') {
      return invalidRequest(
        reply,
        `The \`sort_order\` query parameter value [${sort}] is not one of [recency,relevancy]`,
        { sort_order: [sort] },
      );
    }
    const fields = fieldsOf(reply, q, TWEET_EXPANSIONS);
    if (!fields) return;

    const now = world.now();
    const floor = now - SEVEN_DAYS_MS;
    const bad = (name: string, value: string, message: string) =>
      invalidRequest(reply, `Invalid '${name}':'${value}'. ${message}`, { [name]: [value] });
    if (start.value !== undefined && start.value < floor)
      return bad(
        'start_time',
        String(str(q, 'start_time')),
        `'start_time' must be on or after ${iso(floor)}`,
      );
    if (end.value !== undefined && end.value > now - END_TIME_MARGIN_MS)
      return bad(
        'end_time',
        String(str(q, 'end_time')),
        "'end_time' must be a minimum of 10 seconds prior to the request time.",
      );
    if (start.value !== undefined && end.value !== undefined && start.value >= end.value)
      return bad('start_time', String(str(q, 'start_time')), "'start_time' must be before 'end_time'");
    // An old cursor is refused, not silently widened: a worker back from a long outage must notice.
    if (sinceId.value !== undefined && snowflakeTime(sinceId.value) < floor)
      return bad(
        'since_id',
        sinceId.value,
        `'since_id' must be a tweet id created after ${iso(floor)}. Please use a 'since_id' that is larger than ${snowflake(floor, 0)}`,
      );

    const page = searchRecent(world, ast, {
      startTime: Math.max(floor, start.value ?? floor),
      endBefore: end.value ?? now + 1,
      ...(sinceId.value !== undefined ? { sinceId: sinceId.value } : {}),
      ...upperId(token.value, untilId.value),
      max: max.value,
    });
    const body = tweetsPayload(world, page.posts, fields, deps.baseUrl(request));
    const first = page.posts[0];
    const last = page.posts[page.posts.length - 1];
    body.meta = {
      ...(first && last ? { newest_id: first.id, oldest_id: last.id } : {}),
      result_count: page.posts.length,
      ...(page.more && last ? { next_token: encodeToken(last.id) } : {}),
    };
    return reply.send(body);
  });
}

/** The exclusive upper id of a page: the page token's or until_id, whichever is lower. */
function upperId(fromToken: string | undefined, untilId: string | undefined): { beforeId?: string } {
  const ids = [fromToken, untilId].filter((id) => id !== undefined);
  if (ids.length === 0) return {};
  return { beforeId: ids.reduce((a, b) => (compareIds(a, b) <= 0 ? a : b)) };
}
