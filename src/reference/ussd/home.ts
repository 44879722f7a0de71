// /ussd/home: the main menu ("Contract of /ussd/home … not shown"). It is the root, so its last option has no parent
// to return to: it reloads home itself, which the spec's list of parents ("home, portfolio or another menu") allows.
import type { Menu } from './menu.js';
import { ASSETS, HOME, PORTFOLIO, REQUESTS, STOCKS, type UssdSession } from './session.js';

export function homeMenu(session: UssdSession): Menu {
  return {
    title: `Welcome, ${session.customer.firstName}`,
    choices: [
      { label: 'Buy stocks', to: STOCKS },
      { label: 'My assets', to: ASSETS },
      { label: 'My requests', to: REQUESTS },
      { label: 'Portfolio', to: PORTFOLIO },
    ],
    back: { label: 'Main menu', to: HOME },
  };
}
