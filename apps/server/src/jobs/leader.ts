import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** The advisory-lock key of the worker leader (any fixed 64-bit number; 'MANA' in ASCII). */
export const LEADER_LOCK_KEY = 0x4d414e41;

/**
 * Leadership through a PostgreSQL session-level advisory lock, held on one reserved connection for as long as
 * this worker leads: when the process dies the connection closes and the lock is free for another worker.
 * `pg_try_advisory_lock` also works on PGlite (one session per process, so there a second worker can only be
 * another process, which cannot open the same data directory anyway).
 */
export class Leadership {
  private release: (() => void) | undefined;
  private held: Promise<unknown> | undefined;

  /**
   * `sessionPerProcess`: PGlite has one session for the whole process and Kysely serialises its one connection,
   * so there the lock is taken with a plain query instead of on a reserved connection (which would block every
   * other query of the process).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sessionPerProcess = false,
    /** How often the reserved connection is checked while leading (its death frees the lock). */
    private readonly checkMs = 5_000,
  ) {}

  get isLeader(): boolean {
    return this.release !== undefined;
  }

  /**
   * Tries once; true when this worker now leads (or already did). `onLost` is called if the lock's connection
   * dies while leading (pg_terminate_backend, a server restart, the network): the lock went with it and another
   * worker may lead now, so this one no longer does.
   */
  async tryAcquire(onLost: (error: unknown) => void = () => undefined): Promise<boolean> {
    if (this.release) return true;
    if (this.sessionPerProcess) {
      const { rows } = await sql<{
        locked: boolean;
      }>`select pg_try_advisory_lock(${LEADER_LOCK_KEY}) as locked`.execute(this.db);
      if (!rows[0]?.locked) return false;
      this.release = () => undefined;
      this.held = Promise.resolve();
      return true;
    }
    let acquired!: (value: boolean) => void;
    const outcome = new Promise<boolean>((resolve) => (acquired = resolve));
    this.held = this.db
      .connection()
      .execute(async (connection) => {
        const { rows } = await sql<{
          locked: boolean;
        }>`select pg_try_advisory_lock(${LEADER_LOCK_KEY}) as locked`.execute(connection);
        if (!rows[0]?.locked) {
          acquired(false);
          return;
        }
        let release!: () => void;
        const released = new Promise<'released'>((resolve) => (release = () => resolve('released')));
        this.release = release;
        acquired(true);
        // Without a query, a dead connection goes unnoticed: check it, racing the release.
        for (;;) {
          let timer: NodeJS.Timeout | undefined;
          const tick = new Promise<'check'>(
            (resolve) => (timer = setTimeout(() => resolve('check'), this.checkMs)),
          );
          const next = await Promise.race([released, tick]);
          clearTimeout(timer);
          if (next === 'released') break;
          try {
            await sql`select 1`.execute(connection);
          } catch (error) {
            if (this.release !== release) return; // given up meanwhile: nothing is lost
            this.release = undefined;
            onLost(error);
            return;
          }
        }
        await sql`select pg_advisory_unlock(${LEADER_LOCK_KEY})`.execute(connection);
      })
      .catch(() => acquired(false));
    return outcome;
  }

  /** Gives leadership up (the lock is released on its connection). */
  async relinquish(): Promise<void> {
    const release = this.release;
    this.release = undefined;
    release?.();
    await this.held;
    if (release && this.sessionPerProcess) {
      await sql`select pg_advisory_unlock(${LEADER_LOCK_KEY})`.execute(this.db).catch(() => undefined);
    }
  }
}
