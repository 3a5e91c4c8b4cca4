import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/**
 * The worker leader's advisory lock: the first of its two 32-bit keys ('MANA' in ASCII); the second is a hash of
 * the schema the process works in. Advisory locks belong to the whole database, so with one fixed key two
 * deployments in two schemas of one database (a staging beside production; the test suites side by side) would
 * each wait for the other's leader, and neither would ever run its jobs.
 */
export const LEADER_LOCK_CLASS = 0x4d414e41;

const tryLock = sql<{
  locked: boolean;
}>`select pg_try_advisory_lock(${LEADER_LOCK_CLASS}, hashtext(current_schema())) as locked`;
const unlock = sql`select pg_advisory_unlock(${LEADER_LOCK_CLASS}, hashtext(current_schema()))`;

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
      const { rows } = await tryLock.execute(this.db);
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
        const { rows } = await tryLock.execute(connection);
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
        await unlock.execute(connection);
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
      await unlock.execute(this.db).catch(() => undefined);
    }
  }
}
