// /ussd/home: the main menu ("Contract of /ussd/home … not shown"). It is the top, so its last option has no parent
// to return to: it reloads home itself. Every other menu leads back to another view (a menu is not its own parent);
// home alone has nothing above it, and ussd.links.back does not judge its last option.
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
