// undici, as this package uses it: loaded after Node's own fetch (./dispatcher-before.js), so that importing this
// package leaves the process's fetch as it was (a library must not change it). Every request of ours names its
// dispatcher: an Agent, or a ProxyAgent when the target is reached through a proxy (./route.ts).
import './dispatcher-before.js';
import { Agent, ProxyAgent, request } from 'undici';

export { Agent, ProxyAgent, request };
export type { Dispatcher } from 'undici';
