export { verifyLedger, UsageError, type VerifyOptions } from './verify';
export { renderReport, type Report } from './report';
export { manaOfPost, postsOverDailyLimit, ranksOf, idOrder, standingOrder } from './scoring';
export { openRepository, verifyRecordProof, ProofError } from './proof';
export { identityOf } from './identity';
export { faultBound } from './sampling';
