import { setImmediate as nextTurn } from 'node:timers/promises';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/**
 * Lets the event loop turn once after every statement (issue 31). PGlite runs each statement on the main thread,
 * and Kysely chains a transaction's statements through promises alone, so a transaction of the stream consumer
 * held the loop from BEGIN to COMMIT: every request waited that long. With this plugin requests run between
 * statements. Only the Bluesky stream's handle has it (worker-runtime-bluesky.ts; the scheduled jobs keep the plain
 * one, their timing unchanged), and only on PGlite: PostgreSQL's statements are I/O and turn the loop anyway.
 */
export class LoopTurnPlugin implements KyselyPlugin {
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    await nextTurn();
    return args.result;
  }
}
