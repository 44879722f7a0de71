import type { AuthPolicy } from '../auth-policy.js';
import type { Middleware } from '../context.js';
import type { FaultFlag } from './flags.js';

interface FaultHooks {
  /** `<suite>.<what>`, e.g. `auth.token-type-lowercase`. */
  name: string;
  /** The suite whose checks must catch it. */
  suite: string;
  /** The requirements of spec/requirements.json it breaks: the checks citing them must catch it; any other check it fails is collateral. */
  breaks: readonly string[];
  /** What the server does wrong, in a few words. */
  description: string;
  policy?: Partial<AuthPolicy>;
  middleware?: Middleware;
}

/**
 * One realistic deviation from the spec. A fault acts through one of three hooks: an authentication policy switch,
 * a middleware that rewrites what the server does, or a flag that the route implementing that behaviour reads
 * (`state.faults.has(flag)`, the flag named in flags.ts).
 */
export type FaultDefinition =
  | (FaultHooks & { flag?: undefined })
  /** Implemented inside a route: it checks `state.faults.has(name)`, so its name is one of flags.ts. */
  | (FaultHooks & { name: FaultFlag; flag: true });
