/** A user of the simulated X. */
export type SimUser = {
  id: string;
  username: string;
  name: string;
  createdAt: number;
  followers: number;
  following: number;
  protected: boolean;
  suspended: boolean;
  official: boolean;
};

/** Engagement counts from people outside the scripted world. */
export type Engagement = { likes: number; replies: number; reposts: number; quotes: number };

/** A like by a user of the world, at a time (likes in the future show up when the clock gets there). */
export type SimLike = { userId: string; at: number };

/** A post (tweet) of the simulated X, with the engagement it has received. */
export type SimPost = {
  id: string;
  authorId: string;
  text: string;
  createdAt: number;
  conversationId: string;
  /** The post this one reposts, quotes or replies to. */
  ref: { type: 'retweeted' | 'quoted' | 'replied_to'; id: string } | null;
  deleted: boolean;
  likes: SimLike[];
  /** Outside engagement the post already has. */
  organic: Engagement;
  /** Outside engagement still to come: revealed as the post ages (half of what is left every 12 hours). */
  potential: Engagement;
};

/** The JSON snapshot of a world (`World.toJSON()` / `World.fromJSON()`). */
export type WorldSnapshot = {
  version: 2;
  now: number;
  sequence: number;
  users: SimUser[];
  posts: SimPost[];
};
