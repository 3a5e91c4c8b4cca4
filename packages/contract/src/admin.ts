/**
 * The operator console's schemas, an entry of their own (`@manaboard/contract/admin`): the main page imports the
 * package's index, so its first load never carries the console's schemas (issue 13: the main page's initial JS
 * must not grow with the console).
 */
export * from './admin-session';
export * from './admin-announcements';
export * from './admin-audit';
export * from './admin-fairness';
export * from './admin-appeals';
export * from './admin-console';
export * from './admin-members';
export * from './admin-rules';
export * from './admin-export';
export * from './admin-worker';
export * from './admin-ledger';
export * from './admin-requests';
