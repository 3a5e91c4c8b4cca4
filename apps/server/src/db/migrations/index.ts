import type { Migration } from 'kysely/migration';
import * as m0001 from './0001-announcements';
import * as m0002 from './0002-x-api-usage';
import * as m0003 from './0003-server-secrets';
import * as m0004 from './0004-linking-and-referrals';
import * as m0005 from './0005-mana-engine';
import * as m0006 from './0006-oauth-attempt-nonce';
import * as m0008 from './0008-leaderboard-indexes';
import * as m0009 from './0009-deltas-and-search';
import * as m0010 from './0010-network-neutral-accounts';
import * as m0011 from './0011-bluesky-oauth';
import * as m0012 from './0012-stream-records';
import * as m0013 from './0013-admin-sessions';
import * as m0014 from './0014-appeals-and-worker-control';
import * as m0015 from './0015-fairness';
import * as m0016 from './0016-stream-progress';
import * as m0017 from './0017-post-missing-since';
import * as m0018 from './0018-official-accounts';
import * as m0019 from './0019-traceable-records';
import * as m0020 from './0020-record-tracing';
import * as m0021 from './0021-ledgers';
import * as m0022 from './0022-record-proofs';
import * as m0023 from './0023-stream-tenths';
import * as m0024 from './0024-ledger-build-token';
import * as m0025 from './0025-stream-waiting';
import * as m0026 from './0026-record-lines';

/** Every migration, in order. New migrations are added here (names sort in apply order). */
export const migrations: Record<string, Migration> = {
  '0001-announcements': m0001,
  '0002-x-api-usage': m0002,
  '0003-server-secrets': m0003,
  '0004-linking-and-referrals': m0004,
  '0005-mana-engine': m0005,
  '0006-oauth-attempt-nonce': m0006,
  '0008-leaderboard-indexes': m0008,
  '0009-deltas-and-search': m0009,
  '0010-network-neutral-accounts': m0010,
  '0011-bluesky-oauth': m0011,
  '0012-stream-records': m0012,
  '0013-admin-sessions': m0013,
  '0014-appeals-and-worker-control': m0014,
  '0015-fairness': m0015,
  '0016-stream-progress': m0016,
  '0017-post-missing-since': m0017,
  '0018-official-accounts': m0018,
  '0019-traceable-records': m0019,
  '0020-record-tracing': m0020,
  '0021-ledgers': m0021,
  '0022-record-proofs': m0022,
  '0023-stream-tenths': m0023,
  '0024-ledger-build-token': m0024,
  '0025-stream-waiting': m0025,
  '0026-record-lines': m0026,
};
