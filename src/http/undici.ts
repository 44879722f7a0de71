// undici, as this package uses it: Agent, ProxyAgent and the dispatchers' API (request, and connect, with which
// ProxyAgent tunnels), each loaded from its own module of undici 7 rather than through the package's index. The index
// loads all of undici (fetch, WebSocket, EventSource, the mock and cache layers: three times the modules, a tenth of a
// second of every command's start) and installs undici's Agent as the process's global dispatcher, through which Node
// 20's own fetch then fails ("invalid content-length header") in a program that imports us. These modules do neither.
// Should a later undici 7 lay its files out otherwise, the index is loaded after all, once Node's fetch has installed
// its own dispatcher (undici keeps one it finds).
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

export type { Dispatcher } from 'undici';

export interface Parts {
  Agent: typeof Undici.Agent;
  ProxyAgent: typeof Undici.ProxyAgent;
}

/** undici's parts, through `require` (this module's own; a test hands in one that lacks the modules). */
export function loadUndici(require: NodeJS.Require = createRequire(import.meta.url)): Parts {
  try {
    // As undici's index does: a dispatcher's request(), and connect(), with which ProxyAgent opens its tunnel, are
    // the API's, added to the base class. The same modules as the index's, so loading both changes nothing.
    Object.assign(require('undici/lib/dispatcher/dispatcher.js').prototype, require('undici/lib/api/index.js'));
    return {
      Agent: require('undici/lib/dispatcher/agent.js'),
      ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js'),
    };
  } catch (e) {
    if ((e as NodeJS.ErrnoException)?.code !== 'MODULE_NOT_FOUND') throw e;
    // Node's fetch loads the undici bundled with Node, which installs its global dispatcher; a data: URL needs no network.
    globalThis.fetch('data:,').catch(() => undefined);
    const undici: typeof Undici = require('undici');
    return { Agent: undici.Agent, ProxyAgent: undici.ProxyAgent };
  }
}

const parts = loadUndici();
export const Agent = parts.Agent;
export type Agent = Undici.Agent;
export const ProxyAgent = parts.ProxyAgent;

/** undici's request(url, options) through a dispatcher of ours (never the process's global one). */
export function request(
  url: string,
  options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Undici.Dispatcher },
): Promise<Undici.Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const { origin, pathname, search } = new URL(url);
  return dispatcher.request({ ...rest, origin, path: `${pathname}${search}` });
}
