// A USSD server behind a reverse proxy that builds its follow-up URLs from its own address inside the network (the
// origin it listens on), not from the host the client reached: every link is a full URL no client outside can follow.
// The rendering is right in every other way, so only the rule on the URL itself (ussd.options.request-url) may fail;
// every rule on where a link leads judges its path and query.
import type { Middleware } from '../context.js';
import { mapData } from './reply-rewrites.js';

/** Where such a server listens behind its proxy: a private address no client outside reaches. */
export const INTERNAL_ORIGIN = 'http://10.0.0.12:8080';

/** Rewrites the origin of each requestUrl of a USSD view from the one the client addressed to INTERNAL_ORIGIN. */
export const internalOriginLinks: Middleware = async (ctx, _state, route, next) => {
  const reply = await next();
  if (reply.status !== 200 || !route.path.startsWith('/ussd/')) return reply;
  const origin = ctx.url.origin;
  return mapData(reply, (data) => {
    const options = data.ussdOptions;
    if (!Array.isArray(options)) return data;
    return {
      ...data,
      ussdOptions: options.map((o: Record<string, unknown>) =>
        typeof o.requestUrl === 'string' && o.requestUrl.startsWith(`${origin}/`)
          ? { ...o, requestUrl: `${INTERNAL_ORIGIN}${o.requestUrl.slice(origin.length)}` }
          : o,
      ),
    };
  });
};
