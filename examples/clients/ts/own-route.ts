// A correct client that walks a USSD route of its own: it opens the home menu, then takes the first option of each
// view, three times, over the requestUrls the views give, whatever fixtures.ussdOptions say. It breaks no rule of the
// spec; it leaves the scenario's route unexercised, so `conformance client` grades it INCOMPLETE
// (client.ussd.route skipped), never NOT CONFORMANT. Every other scenario as the good client.
import { Client, main, type UssdView } from './client.js';

/** How many options it takes from the home menu on. */
const STEPS = 3;

class OwnRoute extends Client {
  protected override ussdChoice(view: UssdView, _options: readonly number[], step: number): number | undefined {
    const first = Array.isArray(view.ussdOptions) ? view.ussdOptions[0]?.option : undefined;
    return step < STEPS && typeof first === 'number' ? first : undefined;
  }
}

main((env) => new OwnRoute(env));
