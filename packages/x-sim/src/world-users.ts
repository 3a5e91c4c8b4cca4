import { snowflake } from './snowflake';
import type { SimUser } from './world-types';

/** X's handle rule: 1 to 15 letters, digits or underscores. */
export const HANDLE = /^[A-Za-z0-9_]{1,15}$/;

/** A user to create; everything but the handle has a default. */
export type NewUser = {
  username: string;
  name?: string;
  createdAt?: number;
  followers?: number;
  following?: number;
  official?: boolean;
};

/**
 * The users half of the world: ids are snowflakes of the account's creation time, handles are unique
 * case-insensitively and can change (rename), accounts can be protected or suspended.
 */
export abstract class WorldUsers {
  private sequence = 0;
  private readonly users = new Map<string, SimUser>();
  private readonly byUsername = new Map<string, string>();

  /** The world's current time. */
  abstract now(): number;

  /** A new account; its id is a snowflake of its creation time. Throws on a bad or taken handle. */
  createUser(input: NewUser): SimUser {
    if (!HANDLE.test(input.username)) throw new Error(`invalid handle ${input.username}`);
    if (this.byUsername.has(input.username.toLowerCase()))
      throw new Error(`handle ${input.username} is taken`);
    const createdAt = input.createdAt ?? this.now();
    let id = snowflake(createdAt, this.nextSequence());
    while (this.users.has(id)) id = snowflake(createdAt, this.nextSequence());
    return this.restoreUser({
      id,
      username: input.username,
      name: input.name ?? input.username,
      createdAt,
      followers: input.followers ?? 0,
      following: input.following ?? 0,
      protected: false,
      suspended: false,
      official: input.official ?? false,
    });
  }

  /** A user by id. */
  user(id: string): SimUser | undefined {
    return this.users.get(id);
  }

  /** A user by current handle, case-insensitively. */
  userByUsername(username: string): SimUser | undefined {
    const id = this.byUsername.get(username.toLowerCase());
    return id ? this.users.get(id) : undefined;
  }

  /** Every user, in creation-call order. */
  allUsers(): SimUser[] {
    return [...this.users.values()];
  }

  /** Protected accounts' posts are hidden from everyone but approved followers; the simulation has no follower graph, so from everyone. */
  protectUser(id: string, value = true): void {
    this.mustUser(id).protected = value;
  }

  /** Suspended accounts vanish: their posts are not found, they cannot sign in. */
  suspendUser(id: string, value = true): void {
    this.mustUser(id).suspended = value;
  }

  /** Changes a handle; the old one is free again at once, as on X. */
  rename(id: string, username: string): void {
    const user = this.mustUser(id);
    if (!HANDLE.test(username)) throw new Error(`invalid handle ${username}`);
    const taken = this.byUsername.get(username.toLowerCase());
    if (taken && taken !== id) throw new Error(`handle ${username} is taken`);
    this.byUsername.delete(user.username.toLowerCase());
    user.username = username;
    this.byUsername.set(username.toLowerCase(), id);
  }

  protected nextSequence(): number {
    return this.sequence++;
  }

  protected sequenceValue(): number {
    return this.sequence;
  }

  protected restoreSequence(value: number): void {
    this.sequence = value;
  }

  protected restoreUser(user: SimUser): SimUser {
    const copy = { ...user };
    this.users.set(copy.id, copy);
    this.byUsername.set(copy.username.toLowerCase(), copy.id);
    return copy;
  }

  protected mustUser(id: string): SimUser {
    const user = this.users.get(id);
    if (!user) throw new Error(`no user ${id}`);
    return user;
  }
}
