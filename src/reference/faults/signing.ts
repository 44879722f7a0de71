import type { FaultDefinition } from './types.js';

export const signingFaults: FaultDefinition[] = [];
