// undici, as this package uses it: loaded after Node's own fetch (./dispatcher-before.js), so that importing this
// package leaves the process's fetch as it was (a library must not change it). Every request of ours names its Agent.
import './dispatcher-before.js';
import { Agent, request } from 'undici';

export { Agent, request };
export type { Dispatcher } from 'undici';
