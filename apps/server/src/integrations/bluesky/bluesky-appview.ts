import { Client, ClientResponseError, ClientValidationError, simpleFetchHandler } from '@atcute/client';
import {
  AppBskyActorGetProfile,
  AppBskyActorGetProfiles,
  AppBskyFeedGetLikes,
  AppBskyFeedGetPosts,
  AppBskyFeedGetPostThread,
  AppBskyFeedGetQuotes,
  AppBskyFeedGetRepostedBy,
} from '@atcute/bluesky';
import type { ActorIdentifier, ResourceUri } from '@atcute/lexicons';

/**
 * The public AppView's reads (profiles, posts, threads, likes, reposts, quotes), through `@atcute/client` (issue 33).
 * `@atproto/api`'s agent loads every lexicon document of the protocol as objects to check each answer (importing
 * the Bluesky adapter took 3.8 MB more heap with it in a fresh process, docs/benchmarks.md); here each answer is
 * checked against the schema of its own query only, so an AppView that answers out of shape fails the call
 * (ClientValidationError) as the agent's check did, rather than reaching the code that reads it. A refusal (any
 * status but 200) throws `ClientResponseError`, whose `status` the callers read (400: no such profile; 429: slow
 * down).
 *
 * Signing in and writing (the ledger publisher, the gap fill's search) stay with `@atproto/api`, loaded only when
 * they run.
 */
export class BlueskyAppView {
  private readonly client: Client;

  constructor(service: string, fetch?: typeof globalThis.fetch) {
    this.client = new Client({ handler: simpleFetchHandler({ service, ...(fetch ? { fetch } : {}) }) });
  }

  getProfile(params: { actor: string }) {
    return read(
      this.client.call(AppBskyActorGetProfile, { params: { actor: params.actor as ActorIdentifier } }),
    );
  }

  getProfiles(params: { actors: string[] }) {
    return read(
      this.client.call(AppBskyActorGetProfiles, { params: { actors: params.actors as ActorIdentifier[] } }),
    );
  }

  getPosts(params: { uris: string[] }) {
    return read(this.client.call(AppBskyFeedGetPosts, { params: { uris: params.uris as ResourceUri[] } }));
  }

  getPostThread(params: { uri: string; depth: number; parentHeight: number }) {
    return read(
      this.client.call(AppBskyFeedGetPostThread, { params: { ...params, uri: params.uri as ResourceUri } }),
    );
  }

  getLikes(params: Page) {
    return read(
      this.client.call(AppBskyFeedGetLikes, { params: { ...params, uri: params.uri as ResourceUri } }),
    );
  }

  getRepostedBy(params: Page) {
    return read(
      this.client.call(AppBskyFeedGetRepostedBy, { params: { ...params, uri: params.uri as ResourceUri } }),
    );
  }

  getQuotes(params: Page) {
    return read(
      this.client.call(AppBskyFeedGetQuotes, { params: { ...params, uri: params.uri as ResourceUri } }),
    );
  }
}

type Page = { uri: string; limit: number; cursor?: string };

/**
 * The answer's body, or the refusal thrown. Parameters out of shape (a handle with a space, a malformed AT URI) are
 * refused before any call as the AppView would refuse them, a 400 `InvalidRequest`.
 */
async function read<T>(
  call: Promise<{ ok: true; data: T } | { ok: false; status: number; headers: Headers; data: ErrorBody }>,
): Promise<T> {
  let response;
  try {
    response = await call;
  } catch (error) {
    if (error instanceof ClientValidationError && error.target === 'params') {
      throw new ClientResponseError({
        status: 400,
        data: { error: 'InvalidRequest', message: error.message },
      });
    }
    throw error;
  }
  if (response.ok) return response.data;
  throw new ClientResponseError(response);
}

type ErrorBody = { error: string; message?: string };
