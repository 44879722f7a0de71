// A server across a network answers after a round trip; on loopback the reference server answers at once, which hides
// what a client (or this suite) does while it waits. `latencyMs` holds every routed reply back that long.
import type { Middleware } from './context.js';

export function latencyMiddleware(ms: number): Middleware {
  return async (_ctx, _state, _route, next) => {
    const reply = await next();
    await new Promise<void>((resolve) => setTimeout(resolve, ms));
    return reply;
  };
}
