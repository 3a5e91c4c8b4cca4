// The clock is not X's: it moved to src/lib/clock.ts. Re-exported so existing imports keep working.
export { systemClock, type Clock } from '../../lib/clock';
