// Every open point of the spec as a switch of the reference server (`serve --choice NAME=VALUE`), and the named
// bundles of them (`--variant`). Each area declares its choices in its own file; this joins them and gives them types.
import { CORE_CHOICES } from './core.js';
import { WEBHOOK_CHOICES } from './webhooks.js';
import { USSD_CHOICES } from './ussd.js';
import { TRANSPORT_CHOICES } from './transport.js';
import { TOKENS_CHOICES } from './tokens.js';
import { RESOURCES_CHOICES } from './resources.js';
import { SIGNING_CHOICES } from './signing.js';
import { TIMESTAMPS_CHOICES } from './timestamps.js';
import type { ChoiceDef, ChoiceValue } from './types.js';
import { VARIANTS, type VariantName } from './variants.js';

export type { ChoiceDef } from './types.js';
export { VARIANTS, VARIANT_NAMES, type VariantName } from './variants.js';

export const CHOICE_DEFS = {
  ...CORE_CHOICES,
  ...WEBHOOK_CHOICES,
  ...USSD_CHOICES,
  ...TRANSPORT_CHOICES,
  ...TOKENS_CHOICES,
  ...RESOURCES_CHOICES,
  ...SIGNING_CHOICES,
  ...TIMESTAMPS_CHOICES,
} as const satisfies Record<string, ChoiceDef>;

type Defs = typeof CHOICE_DEFS;
export type ChoiceKey = keyof Defs;
/** How the server makes every open choice: the key in camelCase, the value one of the choice's readings. */
export type Choices = { readonly [K in ChoiceKey]: Defs[K]['values'][number]['value'] };

/** `tokenEnvelope` is `token-envelope` on the command line and in reports. */
export function choiceName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function choiceKeyOf(name: string): ChoiceKey | undefined {
  const key = name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return Object.hasOwn(CHOICE_DEFS, key) ? (key as ChoiceKey) : undefined;
}

export interface NamedChoice {
  key: ChoiceKey;
  name: string;
  def: ChoiceDef;
}

/** Every choice, in declaration order. */
export function allChoices(): NamedChoice[] {
  return (Object.keys(CHOICE_DEFS) as ChoiceKey[]).map((key) => ({
    key,
    name: choiceName(key),
    def: CHOICE_DEFS[key] as ChoiceDef,
  }));
}

export const DEFAULT_CHOICES: Choices = Object.fromEntries(
  allChoices().map((c) => [c.key, c.def.values[0]!.value]),
) as unknown as Choices;

export class ChoiceError extends Error {}

/** The value of a choice, or a ChoiceError naming the readings there are. */
export function parseChoice(text: string): Partial<Choices> {
  const eq = text.indexOf('=');
  const name = eq < 0 ? text : text.slice(0, eq);
  const key = choiceKeyOf(name.trim());
  if (key === undefined) throw new ChoiceError(`unknown choice "${name}"; conformance serve --list-choices lists them`);
  const def = CHOICE_DEFS[key] as ChoiceDef;
  const value = eq < 0 ? '' : text.slice(eq + 1).trim();
  if (!def.values.some((v) => v.value === value)) {
    throw new ChoiceError(
      `choice ${choiceName(key)} takes ${def.values.map((v) => v.value).join(', ')}; got "${value}"`,
    );
  }
  return { [key]: value } as Partial<Choices>;
}

/** A variant's bundle with the given choices over it (later ones win). */
export function resolveChoices(variant: VariantName = 'strict', overrides: Partial<Choices> = {}): Choices {
  return { ...DEFAULT_CHOICES, ...VARIANTS[variant], ...overrides } as Choices;
}

/** The choices that differ from the defaults, as `name=value` (what a report records). */
export function nonDefault(choices: Choices): string[] {
  return allChoices()
    .filter((c) => choices[c.key] !== DEFAULT_CHOICES[c.key])
    .map((c) => `${c.name}=${choices[c.key]}`);
}

export function valueOf(key: ChoiceKey, value: string): ChoiceValue | undefined {
  return (CHOICE_DEFS[key] as ChoiceDef).values.find((v) => v.value === value);
}
