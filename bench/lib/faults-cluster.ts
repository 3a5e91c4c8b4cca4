// The faults bench's own PostgreSQL cluster (the `pg-restart` fault): the machine's server is shared by others, so
// the bench crashes and restarts a cluster of its own, in a temporary directory.
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

const PG_PORT = Number(process.env.BENCH_FAULTS_PG_PORT ?? 5499);
const PG_BIN = process.env.BENCH_FAULTS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A PostgreSQL cluster of the bench's own (the machine's server is shared): initdb, start, crash, start. */
export class OwnCluster {
  private constructor(
    readonly dir: string,
    readonly url: string,
  ) {}

  static async create(): Promise<OwnCluster> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mb-faults-pg-'));
    // PostgreSQL refuses to run as root: the cluster belongs to the postgres user when the bench runs as root.
    if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:postgres', dir]);
    const cluster = new OwnCluster(dir, `postgres://postgres@127.0.0.1:${PG_PORT}/faults`);
    await cluster.pg('initdb', [
      '-D',
      path.join(dir, 'data'),
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
    ]);
    await cluster.start();
    const client = new pg.Client({ connectionString: cluster.url.replace(/\/faults$/, '/postgres') });
    await client.connect();
    await client.query('create database faults');
    await client.end();
    return cluster;
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const file = path.join(PG_BIN, program);
    if (process.getuid?.() === 0) await run('runuser', ['-u', 'postgres', '--', file, ...args]);
    else await run(file, args);
  }

  start(): Promise<void> {
    return this.pg('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-l',
      path.join(this.dir, 'log'),
      '-o',
      `-p ${PG_PORT} -k ${this.dir} -c listen_addresses=127.0.0.1`,
      '-w',
      'start',
    ]);
  }

  /** A crash: no checkpoint, every connection cut; recovery replays the WAL at the next start. */
  crash(): Promise<void> {
    return this.pg('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.pg('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']).catch(
      () => undefined,
    );
    await fs.rm(this.dir, { recursive: true, force: true });
  }
}
