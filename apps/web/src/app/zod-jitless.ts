import { config } from 'zod/mini';

// Imported first by main.tsx, before any contract schema is built: zod's JIT probes `new Function` when an
// object schema is created, which our Content-Security-Policy (script-src 'self', no 'unsafe-eval') refuses and
// reports as a violation. Jitless parsing needs no eval. Configured through zod/mini (zod's shared core config),
// like the contract's schemas, so the classic `zod` API is not bundled.
config({ jitless: true });
