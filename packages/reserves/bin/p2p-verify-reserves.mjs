#!/usr/bin/env node
// The package's command (DECISIONS §20). Its source is TypeScript; tsx loads it on any supported Node.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = main(process.argv.slice(2));
