// CONFORMANCE_DEBUG=1: every request of the command and its answer (or what went wrong on the wire) on stderr, as the
// reports record them, secrets masked, as each ends. So a run that stops at its token request shows what was sent and
// what came back before the one line that says why it stopped.
import { subscribe } from 'node:diagnostics_channel';
import { EXCHANGE_CHANNEL, type Exchange } from '../http/exchange.js';
import { formatExchange } from '../report/exchange-text.js';

/** Prints each exchange the signed client publishes to `err`, from now until the process ends. */
export function printExchanges(err: { write(text: string): unknown }): void {
  subscribe(EXCHANGE_CHANNEL, (message) => {
    const exchange = message as Exchange;
    err.write(`conformance debug: exchange ${exchange.seq} (${exchange.checkId})\n${formatExchange(exchange)}\n`);
  });
}
