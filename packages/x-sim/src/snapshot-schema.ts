import { z } from 'zod';
import type { WorldSnapshot } from './world-types';

const id = z.string().regex(/^\d{1,19}$/);
const count = z.number().int().nonnegative();
const engagement = z.object({ likes: count, replies: count, reposts: count, quotes: count });

const snapshotSchema = z.object({
  version: z.literal(2),
  now: z.number().int(),
  sequence: count,
  users: z.array(
    z.object({
      id,
      username: z.string().regex(/^[A-Za-z0-9_]{1,15}$/),
      name: z.string(),
      createdAt: z.number().int(),
      followers: count,
      following: count,
      protected: z.boolean(),
      suspended: z.boolean(),
      official: z.boolean(),
    }),
  ),
  posts: z.array(
    z.object({
      id,
      authorId: id,
      text: z.string(),
      createdAt: z.number().int(),
      conversationId: id,
      ref: z.object({ type: z.enum(['retweeted', 'quoted', 'replied_to']), id }).nullable(),
      deleted: z.boolean(),
      likes: z.array(z.object({ userId: id, at: z.number().int() })),
      organic: engagement,
      potential: engagement,
    }),
  ),
});

/** Checks a parsed JSON snapshot before a world is rebuilt from it (a hand-edited file fails here, clearly). */
export function parseSnapshot(input: unknown): WorldSnapshot {
  const result = snapshotSchema.safeParse(input);
  if (!result.success) throw new Error(`Not a world snapshot: ${z.prettifyError(result.error)}`);
  return result.data;
}
