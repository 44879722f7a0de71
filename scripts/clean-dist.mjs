// Removes dist/ before a build so a renamed or deleted source never leaves a stale compiled module behind.
import { rmSync } from 'node:fs';
rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
