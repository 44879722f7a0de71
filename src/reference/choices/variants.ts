// The named bundles of choices (`--variant`), in a module of their own: the command line names them in every command's
// definition, and loads the open points themselves (index.ts) only when a command takes --choice.
import type { Choices } from './index.js';

/** Named bundles: `strict` is every default; `alt` flips the eight points the first reference server switched. */
export const VARIANTS = {
  strict: {},
  alt: {
    tokenEnvelope: 'bare',
    creationStatus: '201',
    webhookKeyFormat: 'jwk',
    pageMode: 'offset',
    defaultSort: 'DESC',
    ussdNumbering: 'paren',
    ussdBack: 'zero',
    extraFields: 'added',
    scopeFormat: 'string',
  },
} as const satisfies Record<string, Partial<Choices>>;
export type VariantName = keyof typeof VARIANTS;
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];
