import { SimClock } from './clock';
import { noEngagement, publicMetrics } from './engagement';
import { PostIndex } from './post-index';
import { parseSnapshot } from './snapshot-schema';
import { compareIds, snowflake } from './snowflake';
import { WorldUsers } from './world-users';
import type { Engagement, SimPost, WorldSnapshot } from './world-types';

type Ref = SimPost['ref'];

/**
 * The simulated X's world: users, posts and engagement on a controllable clock. Tests and the demo script it
 * (createPost, like, repost, quote, reply, deletePost, protectUser, suspendUser, rename, advance); the HTTP
 * layer only reads it. Anything dated after `now()` stays invisible until the clock gets there.
 */
export class World extends WorldUsers {
  readonly clock: SimClock;
  /** Posts in creation order, by author, conversation and token (what search walks). */
  readonly index = new PostIndex();
  private readonly posts = new Map<string, SimPost>();
  /** Reposts, quotes and replies of a post. */
  private readonly refsTo = new Map<string, SimPost[]>();
  /** Posts each user liked. */
  private readonly liked = new Map<string, SimPost[]>();

  constructor(now: number) {
    super();
    this.clock = new SimClock(now);
  }

  /** The simulated time, in epoch milliseconds. */
  override now(): number {
    return this.clock.now();
  }

  /** Moves the simulated clock forward. */
  advance(ms: number): void {
    this.clock.advance(ms);
  }

  // ---- posts ----

  /** A post by `authorId` at `at` (default now); `ref` makes it a repost, quote or reply. */
  createPost(authorId: string, text: string, at = this.now(), ref: Ref = null): SimPost {
    this.mustUser(authorId);
    at = Math.floor(at);
    if (ref) this.mustPost(ref.id);
    let id = snowflake(at, this.nextSequence());
    while (this.posts.has(id)) id = snowflake(at, this.nextSequence());
    const parent = ref?.type === 'replied_to' ? this.posts.get(ref.id) : undefined;
    return this.insert({
      id,
      authorId,
      text,
      createdAt: at,
      conversationId: parent ? parent.conversationId : id,
      ref,
      deleted: false,
      likes: [],
      organic: noEngagement(),
      potential: noEngagement(),
    });
  }

  /** `userId` likes a post (once; a second like is ignored). */
  like(userId: string, postId: string, at = this.now()): void {
    this.mustUser(userId);
    const post = this.mustPost(postId);
    if (post.likes.some((l) => l.userId === userId)) return;
    post.likes.push({ userId, at: Math.floor(at) });
    push(this.liked, userId, post);
  }

  /** Takes a like back. */
  unlike(userId: string, postId: string): void {
    const post = this.mustPost(postId);
    post.likes = post.likes.filter((l) => l.userId !== userId);
    this.liked.set(
      userId,
      (this.liked.get(userId) ?? []).filter((p) => p !== post),
    );
  }

  /** A repost (X's retweet: text "RT @author: …"); one per user and post, so a second gives the first back. */
  repost(userId: string, postId: string, at = this.now()): SimPost {
    const original = this.mustPost(postId);
    const existing = this.refs(postId, 'retweeted').find((p) => p.authorId === userId && !p.deleted);
    if (existing) return existing;
    const author = this.user(original.authorId);
    return this.createPost(userId, `RT @${author?.username ?? 'unknown'}: ${original.text}`, at, {
      type: 'retweeted',
      id: postId,
    });
  }

  /** A quote of a post, with its own text. */
  quote(userId: string, postId: string, text: string, at = this.now()): SimPost {
    return this.createPost(userId, text, at, { type: 'quoted', id: postId });
  }

  /** A reply; it joins the conversation of the post it answers. */
  reply(userId: string, postId: string, text: string, at = this.now()): SimPost {
    return this.createPost(userId, text, at, { type: 'replied_to', id: postId });
  }

  /** Deletes a post (an undone repost is a deleted repost). */
  deletePost(id: string): void {
    this.mustPost(id).deleted = true;
  }

  /** Outside engagement that is there at once. */
  addOrganic(id: string, delta: Partial<Engagement>): void {
    addInto(this.mustPost(id).organic, delta);
  }

  /** Outside engagement that arrives as the post ages. */
  addPotential(id: string, delta: Partial<Engagement>): void {
    addInto(this.mustPost(id).potential, delta);
  }

  /** A post by id, whatever its state (deleted, future, hidden). */
  post(id: string): SimPost | undefined {
    return this.posts.get(id);
  }

  /** Every post (future ones too), oldest first. */
  postsByTime(): readonly SimPost[] {
    return this.index.all();
  }

  /** Posted by now and not deleted. */
  isLive(post: SimPost): boolean {
    return !post.deleted && post.createdAt <= this.now();
  }

  /** Whether X would show the post to anyone: live, author neither protected nor suspended, original alive. */
  isVisible(post: SimPost): boolean {
    const author = this.user(post.authorId);
    if (!this.isLive(post) || !author || author.protected || author.suspended) return false;
    if (post.ref?.type !== 'retweeted') return true;
    const original = this.posts.get(post.ref.id);
    return !!original && this.isLive(original);
  }

  /** X's public_metrics of a post, as of now. */
  metrics(post: SimPost) {
    const now = this.now();
    const count = (type: NonNullable<Ref>['type']) =>
      this.refs(post.id, type).filter((p) => this.isLive(p)).length;
    return publicMetrics(post, now, {
      likes: post.likes.filter((l) => l.at <= now).length,
      replies: count('replied_to'),
      reposts: count('retweeted'),
      quotes: count('quoted'),
    });
  }

  /** Ids of the users who have reposted a post, latest first. */
  repostersOf(postId: string): string[] {
    return this.refs(postId, 'retweeted')
      .filter((p) => this.isLive(p))
      .sort(newestFirst)
      .map((p) => p.authorId);
  }

  /** Visible quotes of a post, latest first. */
  quotesOf(postId: string): SimPost[] {
    return this.refs(postId, 'quoted')
      .filter((p) => this.isVisible(p))
      .sort(newestFirst);
  }

  /** Posts a user liked, most recent like first. */
  likedBy(userId: string): SimPost[] {
    const now = this.now();
    const at = (post: SimPost) => post.likes.find((l) => l.userId === userId)?.at ?? Infinity;
    return (this.liked.get(userId) ?? []).filter((post) => at(post) <= now).sort((a, b) => at(b) - at(a));
  }

  /** How many live posts a user has (their tweet_count). */
  postCount(userId: string): number {
    return this.index.ofAuthor(userId).filter((p) => this.isLive(p)).length;
  }

  // ---- snapshots ----

  /** The whole world as plain JSON data (users, posts, engagement, clock). */
  toJSON(): WorldSnapshot {
    return {
      version: 2,
      now: this.now(),
      sequence: this.sequenceValue(),
      users: this.allUsers(),
      posts: [...this.postsByTime()],
    };
  }

  /** Rebuilds a world from a snapshot (checked first); indexes are rebuilt from the posts. */
  static fromJSON(input: unknown): World {
    const snapshot = parseSnapshot(input);
    const world = new World(snapshot.now);
    for (const user of snapshot.users) world.restoreUser(user);
    for (const stored of snapshot.posts) {
      const post = world.insert(structuredClone(stored));
      for (const like of post.likes) push(world.liked, like.userId, post);
    }
    world.restoreSequence(snapshot.sequence);
    return world;
  }

  private insert(post: SimPost): SimPost {
    this.posts.set(post.id, post);
    this.index.add(post);
    if (post.ref) push(this.refsTo, post.ref.id, post);
    return post;
  }

  private refs(postId: string, type: NonNullable<Ref>['type']): SimPost[] {
    return (this.refsTo.get(postId) ?? []).filter((p) => p.ref?.type === type);
  }

  private mustPost(id: string): SimPost {
    const post = this.posts.get(id);
    if (!post) throw new Error(`no post ${id}`);
    return post;
  }
}

const newestFirst = (a: SimPost, b: SimPost) => compareIds(b.id, a.id);

function push(map: Map<string, SimPost[]>, key: string, post: SimPost): void {
  const list = map.get(key);
  if (list) list.push(post);
  else map.set(key, [post]);
}

function addInto(target: Engagement, delta: Partial<Engagement>): void {
  target.likes += delta.likes ?? 0;
  target.replies += delta.replies ?? 0;
  target.reposts += delta.reposts ?? 0;
  target.quotes += delta.quotes ?? 0;
}
