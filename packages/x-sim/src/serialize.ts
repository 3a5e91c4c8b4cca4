import { entities } from './post-terms';
import type { World } from './world';
import type { SimPost, SimUser } from './world-types';

/** What the caller asked for: tweet.fields, user.fields, expansions. */
export type FieldChoice = { tweet: Set<string>; user: Set<string>; expansions: Set<string> };

/** A Tweet object: the default fields (id, text, edit_history_tweet_ids) and the requested ones. */
export function tweetObject(world: World, post: SimPost, fields: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: post.id, text: post.text, edit_history_tweet_ids: [post.id] };
  if (fields.has('author_id')) out.author_id = post.authorId;
  if (fields.has('created_at')) out.created_at = new Date(post.createdAt).toISOString();
  if (fields.has('conversation_id')) out.conversation_id = post.conversationId;
  if (fields.has('public_metrics')) out.public_metrics = world.metrics(post);
  if (fields.has('referenced_tweets') && post.ref) out.referenced_tweets = [{ ...post.ref }];
  if (fields.has('lang')) out.lang = 'en';
  if (fields.has('possibly_sensitive')) out.possibly_sensitive = false;
  if (fields.has('reply_settings')) out.reply_settings = 'everyone';
  if (fields.has('entities')) {
    const found = entities(post.text, (name) => world.userByUsername(name)?.id);
    if (Object.keys(found).length > 0) out.entities = found;
  }
  if (fields.has('in_reply_to_user_id') && post.ref?.type === 'replied_to') {
    const parent = world.post(post.ref.id);
    if (parent) out.in_reply_to_user_id = parent.authorId;
  }
  return out;
}

/** A User object: the default fields (id, name, username) and the requested ones. */
export function userObject(
  world: World,
  user: SimUser,
  fields: Set<string>,
  avatarBase: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { id: user.id, name: user.name, username: user.username };
  if (fields.has('created_at')) out.created_at = new Date(user.createdAt).toISOString();
  if (fields.has('profile_image_url')) out.profile_image_url = `${avatarBase}/avatars/${user.id}.svg`;
  if (fields.has('protected')) out.protected = user.protected;
  if (fields.has('verified')) out.verified = false;
  if (fields.has('description')) out.description = user.official ? 'Official account' : '';
  if (fields.has('public_metrics')) {
    out.public_metrics = {
      followers_count: user.followers,
      following_count: user.following,
      tweet_count: world.postCount(user.id),
      listed_count: Math.floor(user.followers / 200),
      like_count: world.likedBy(user.id).length,
    };
  }
  return out;
}

/** `data`, and `includes` for the requested expansions, of a list of posts. */
export function tweetsPayload(world: World, posts: SimPost[], choice: FieldChoice, avatarBase: string) {
  const out: Record<string, unknown> = {};
  if (posts.length === 0) return out;
  out.data = posts.map((p) => tweetObject(world, p, choice.tweet));
  const ex = choice.expansions;
  const tweets = ex.has('referenced_tweets.id')
    ? unique(posts.flatMap((p) => (p.ref ? [world.post(p.ref.id)] : []))).filter((p) => world.isVisible(p))
    : [];
  const userIds: string[] = [];
  for (const post of posts) {
    if (ex.has('author_id')) userIds.push(post.authorId);
    if (ex.has('in_reply_to_user_id') && post.ref?.type === 'replied_to') {
      const parent = world.post(post.ref.id);
      if (parent) userIds.push(parent.authorId);
    }
    if (ex.has('entities.mentions.username')) {
      for (const m of entities(post.text, () => undefined).mentions ?? []) {
        const user = world.userByUsername(m.username);
        if (user) userIds.push(user.id);
      }
    }
  }
  if (ex.has('referenced_tweets.id.author_id')) userIds.push(...tweets.map((t) => t.authorId));
  const users = unique(userIds.map((id) => world.user(id))).filter((u) => !u.suspended);
  const includes: Record<string, unknown> = {};
  if (users.length > 0) includes.users = users.map((u) => userObject(world, u, choice.user, avatarBase));
  if (tweets.length > 0) includes.tweets = tweets.map((t) => tweetObject(world, t, choice.tweet));
  if (Object.keys(includes).length > 0) out.includes = includes;
  return out;
}

function unique<T extends { id: string }>(items: (T | undefined)[]): T[] {
  const seen = new Set<string>();
  return items.filter((item): item is T => !!item && !seen.has(item.id) && !!seen.add(item.id));
}
