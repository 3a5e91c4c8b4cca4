export * from './errors';
export * from './envelopes';
export * from './announcements';
export * from './health';
export * from './public-config';
export * from './referrals';
export * from './programme';
export * from './mana';
