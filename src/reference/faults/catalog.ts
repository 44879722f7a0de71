// The fault catalog: `conformance serve --fault NAME` and the detection matrix switch these on one at a time. Each
// must be caught by at least one check of its suite, and each check must be caught failing by at least one fault.
import type { AuthPolicy } from '../auth-policy.js';
import type { Middleware } from '../context.js';
import type { FaultDefinition } from './types.js';
import type { FaultFlag, FaultFlags } from './flags.js';
import { authFaults } from './auth.js';
import { resourceFaults } from './resources.js';
import { ussdFaults } from './ussd.js';
import { webhookFaults } from './webhooks.js';
import { signingFaults } from './signing.js';
import { paginationFaults } from './pagination.js';

export type { FaultDefinition } from './types.js';

export const FAULTS: readonly FaultDefinition[] = [
  ...authFaults,
  ...signingFaults,
  ...paginationFaults,
  ...resourceFaults,
  ...ussdFaults,
  ...webhookFaults,
];

class UnknownFaultError extends Error {}

export function findFault(name: string): FaultDefinition | undefined {
  return FAULTS.find((f) => f.name === name);
}

/** The hooks of the named faults, merged. An unknown name is an error naming the known ones. */
export function resolveFaults(names: readonly string[]): {
  policy: Partial<AuthPolicy>;
  middleware: Middleware[];
  flags: FaultFlags;
} {
  const policy: Partial<AuthPolicy> = {};
  const middleware: Middleware[] = [];
  const flags = new Set<FaultFlag>();
  for (const name of names) {
    const fault = findFault(name);
    if (!fault) throw new UnknownFaultError(`unknown fault "${name}"; 'conformance serve --list-faults' lists them`);
    Object.assign(policy, fault.policy);
    if (fault.middleware) middleware.push(fault.middleware);
    if (fault.flag) flags.add(fault.name);
  }
  return { policy, middleware, flags };
}
