// What a 3xx answer says of itself, for findings and set-up errors alike: the client never follows redirects.
import type { HttpResponse } from './client.js';

/**
 * For a 3xx: where it points. Redirects are never followed (a redirect to another origin would carry the credentials
 * there), so a redirect where an answer is due is the server's failure, and the report names the origin it points to.
 */
export function redirectNote(res: HttpResponse): string {
  if (res.status < 300 || res.status > 399) return '';
  const location = res.exchange.response?.headers.find(([n]) => n.toLowerCase() === 'location')?.[1];
  if (location === undefined) return ' (a redirect without Location)';
  let target: URL;
  try {
    target = new URL(location, res.exchange.request.url);
  } catch {
    return ` (a redirect to ${JSON.stringify(location)}, not a URL)`;
  }
  const same = target.origin === new URL(res.exchange.request.url).origin;
  return ` (a redirect to ${target.origin}${same ? ", the target's own origin" : ', another origin'}; redirects are not followed)`;
}
