import type { FaultDefinition } from './types.js';

export const paginationFaults: FaultDefinition[] = [];
