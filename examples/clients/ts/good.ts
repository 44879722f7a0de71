// The correct client: `conformance client -- node dist/examples/clients/ts/good.js` passes every scenario.
import { Client, main } from './client.js';

main((env) => new Client(env));
