import type { ColumnType } from 'kysely';

type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** A reply or quote a polling search showed (migration 0015): `actor_id` engaged with post `subject_id`. */
export interface EngagementEdgesTable {
  id: string;
  kind: 'reply' | 'quote';
  actor_id: string;
  subject_id: string;
  created_at: Timestamp;
}

export type FairnessFlagKind = 'ring' | 'referral_chain' | 'spike';

/** The fairness detector's advice about one member (migration 0015); see modules/fairness. */
export interface FairnessFlagsTable {
  /** The member's network user id. */
  subject_id: string;
  kind: FairnessFlagKind;
  handle: string;
  /** How strong the signal is, 0..1 (rings: share from the cluster; chains: fresh share; spikes: capped ratio). */
  score: number;
  reason: string;
  evidence: ColumnType<Record<string, unknown>, string, string>;
  first_flagged_at: Timestamp;
  computed_at: Timestamp;
  reviewed_at: Timestamp | null;
  reviewed_by: string | null;
  review_note: string | null;
}
