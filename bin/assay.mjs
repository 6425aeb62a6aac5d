#!/usr/bin/env node
// The `assay` command. The CLI is TypeScript shared with the extension; tsx runs it directly
// so `npx assay` works after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
