#!/usr/bin/env node
// Compiled JavaScript only on the run path: no TypeScript loader, so start-up stays fast.
import { main } from '../dist/src/cli/main.js';

main(process.argv);
