// The example clients of the client detection matrix (examples/clients/), as commands run from the repository's root
// after `npm run build`: the good client, the client written without our code (the tasks it does), the client that
// walks a USSD route of its own, and one broken client per flaw of the flaws table.
import type { ExampleClient } from './client-detection.js';

interface FlawEntry {
  fails: readonly string[];
  what: string;
}

/** The scenarios the bash client does (examples/clients/sh/client.sh): all but webhooks. */
const SHELL_SCENARIOS = ['token', 'read', 'update', 'renew', 'throttle', 'ussd'];

export function exampleClients(flaws: Readonly<Record<string, FlawEntry>>): ExampleClient[] {
  return [
    {
      name: 'good',
      command: ['node', 'dist/examples/clients/ts/good.js'],
      fails: [],
      description: 'the correct client, on this package',
    },
    {
      name: 'sh',
      command: ['bash', 'examples/clients/sh/client.sh'],
      fails: [],
      description: 'a correct client without our code (bash, curl, openssl, jq)',
      scenarios: SHELL_SCENARIOS,
    },
    {
      name: 'own-ussd-route',
      command: ['node', 'dist/examples/clients/ts/own-route.js'],
      fails: [],
      description:
        "a correct client that walks a USSD route of its own (home, then each view's first option, 3 times) over the given URLs",
      unexercised: ['client.ussd.route'],
    },
    ...Object.entries(flaws).map(([name, flaw]) => ({
      name,
      command: ['node', 'dist/examples/clients/ts/broken.js', name],
      fails: [...flaw.fails],
      description: flaw.what,
    })),
  ];
}
