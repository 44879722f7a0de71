// /ussd/portfolio: what the customer's holdings are worth ("Contract of … /ussd/portfolio … not shown").
import type { Currency } from '../store.js';
import type { Menu } from './menu.js';
import { ASSETS, HOME, money, REQUESTS, signedPercent, STOCKS, type UssdSession } from './session.js';

export function portfolioMenu(session: UssdSession): Menu {
  const { store } = session.state;
  const assets = store.assetList(session.customer.customerId);
  // Holdings in different currencies are never added up: the sandbox has no exchange rates.
  const byCurrency = new Map<Currency, { value: number; invested: number }>();
  for (const a of assets) {
    const sum = byCurrency.get(a.currency) ?? { value: 0, invested: 0 };
    sum.value += a.position * a.marketPrice;
    sum.invested += a.investmentAmount;
    byCurrency.set(a.currency, sum);
  }
  const lines =
    assets.length === 0
      ? ['You hold no assets yet.']
      : [
          `${assets.length} holding${assets.length === 1 ? '' : 's'}`,
          ...[...byCurrency].map(
            ([currency, s]) =>
              `Value: ${money(currency, round2(s.value))} (${signedPercent(s.invested === 0 ? 0 : (s.value - s.invested) / s.invested)})`,
          ),
        ];
  const pending = store.orderRequestList(session.customer.customerId, 'PENDING').length;
  lines.push(`Pending requests: ${pending}`);
  return {
    title: `Portfolio - ${session.customer.firstName} ${session.customer.lastName}`,
    lines,
    choices: [
      { label: 'My assets', to: ASSETS },
      { label: 'My requests', to: REQUESTS },
      { label: 'Buy stocks', to: STOCKS },
    ],
    back: { label: 'Back', to: HOME },
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
