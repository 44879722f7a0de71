// The target's traffic out of a capture: a browser or proxy HAR holds every call the page or client made (fonts,
// analytics, other APIs); a judge reads only the exchanges sent to the target's origin under its base path, and the
// person is told how many were left out so a wrong base URL shows at once ("40 of 40 entries left out").
import type { TrafficExchange } from './exchange.js';

export interface Scoped {
  exchanges: TrafficExchange[];
  /** Exchanges to another origin (scheme, host or port differ). */
  otherOrigin: number;
  /** Exchanges to the target's origin but outside its base path. */
  outsideBasePath: number;
}

/**
 * Keeps the exchanges whose URL has the base URL's origin and whose path is the base path or below it (`/v1`,
 * `/v1/…`, never `/v10`). Origins compare as URL does: case-insensitive host, default port dropped.
 */
export function toTarget(exchanges: readonly TrafficExchange[], baseUrl: URL): Scoped {
  const base = baseUrl.pathname.replace(/\/+$/, '');
  const scoped: Scoped = { exchanges: [], otherOrigin: 0, outsideBasePath: 0 };
  for (const exchange of exchanges) {
    // readHar refuses a URL that is not absolute; one from elsewhere that is not counts as another host, never throws.
    const url = URL.canParse(exchange.request.url) ? new URL(exchange.request.url) : undefined;
    if (url === undefined || url.origin !== baseUrl.origin) scoped.otherOrigin++;
    else if (base !== '' && url.pathname !== base && !url.pathname.startsWith(`${base}/`)) scoped.outsideBasePath++;
    else scoped.exchanges.push(exchange);
  }
  return scoped;
}

/** What was left out, in one line for the person ("412 entries to other hosts left out"), or undefined when none. */
export function leftOutLine(scoped: Scoped, baseUrl: URL): string | undefined {
  const parts = [
    ...(scoped.otherOrigin > 0 ? [`${entries(scoped.otherOrigin)} to other hosts`] : []),
    ...(scoped.outsideBasePath > 0 ? [`${entries(scoped.outsideBasePath)} outside ${baseUrl.pathname}`] : []),
  ];
  if (parts.length === 0) return undefined;
  const none = scoped.exchanges.length === 0 ? `: none is for ${baseUrl.href}; check the base URL` : '';
  return `${parts.join(' and ')} left out${none}`;
}

function entries(n: number): string {
  return `${n} ${n === 1 ? 'entry' : 'entries'}`;
}
