// The built-in target's settings as `run`, `curl` and `replay` take them on the command line (--variant, --choice,
// --fault), in the shape the library takes (RunOptions.local).
import type { Choices, VariantName } from '../reference/choices/index.js';

export interface LocalFlags {
  variant?: VariantName;
  choice?: Partial<Choices>;
  /** Comma-separated fault names. */
  fault?: string;
}

export function localOptionsOf(opts: LocalFlags): {
  variant?: VariantName;
  choices?: Partial<Choices>;
  faults?: string[];
} {
  return {
    ...(opts.variant ? { variant: opts.variant } : {}),
    ...(opts.choice && Object.keys(opts.choice).length > 0 ? { choices: opts.choice } : {}),
    ...(opts.fault ? { faults: splitList(opts.fault) } : {}),
  };
}

/** A comma-separated list, its items trimmed, empty ones dropped. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
}
