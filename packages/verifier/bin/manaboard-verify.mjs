#!/usr/bin/env node
// The package's command: loads tsx's loader (the sources are TypeScript), then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));
