import { timingSafeEqual } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import { isOperatorActionName, operatorActions, type OperatorContext } from './operator-actions';
import { MAX_REQUEST_BYTES, type OwnerRequest, type OwnerResponse } from './owner-socket';

type ChannelLog = {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
};

export type OwnerChannel = { close: () => Promise<void> };

/**
 * The owner of the embedded database takes operator commands on a Unix socket (mode 0600) beside its lock.
 * A request must carry the lock's token (readable only by the user who owns the data directory); the action
 * runs here, on this process's database, so its write is the server's own and nothing is lost or overwritten.
 * After a write the owner recomputes totals and drops cached pages (`afterWrite`), so the change shows at once.
 */
export async function startOwnerChannel(options: {
  socket: string;
  token: string;
  context: Omit<OperatorContext, 'actor'>;
  afterWrite: () => Promise<void>;
  log: ChannelLog;
}): Promise<OwnerChannel> {
  const { socket, token, context, afterWrite, log } = options;
  const expected = Buffer.from(token);

  async function answer(line: string): Promise<OwnerResponse> {
    let request: Partial<OwnerRequest>;
    try {
      request = JSON.parse(line) as Partial<OwnerRequest>;
    } catch {
      return { ok: false, error: 'Malformed request.' };
    }
    const given = Buffer.from(typeof request.token === 'string' ? request.token : '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return {
        ok: false,
        error: 'Not authorised: the token does not match the lock of this data directory.',
      };
    }
    if (!isOperatorActionName(request.action)) return { ok: false, error: 'Unknown action.' };
    const actor = typeof request.actor === 'string' ? request.actor.slice(0, 100) : 'cli:unknown';
    const action = operatorActions[request.action];
    try {
      const output = await action.run({ ...context, actor }, request.input);
      if (action.writes) await afterWrite();
      log.info({ action: request.action, actor }, 'operator command done');
      return { ok: true, output };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.warn({ action: request.action, actor, error: message }, 'operator command failed');
      return { ok: false, error: message };
    }
  }

  const server = net.createServer((connection) => {
    let received = '';
    connection.setEncoding('utf8');
    connection.setTimeout(10_000, () => connection.destroy());
    connection.on('error', () => undefined); // a command that went away mid-answer is not our failure
    connection.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) {
        connection.end(`${JSON.stringify({ ok: false, error: 'Request too large.' })}\n`);
        return;
      }
      const end = received.indexOf('\n');
      if (end < 0) return;
      connection.setTimeout(0); // the action may take long (a rebuild); the command waits for it
      connection.removeAllListeners('data');
      void answer(received.slice(0, end)).then((response) => {
        connection.end(`${JSON.stringify(response)}\n`);
      });
    });
  });
  // A socket file left by a crashed owner: we hold the lock now, so it is ours to replace.
  await fs.rm(socket, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      resolve();
    });
  });
  await fs.chmod(socket, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}
