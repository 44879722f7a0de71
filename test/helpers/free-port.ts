// A loopback port free at this moment, for a program that must be told its port before it starts (nginx, squid, a
// receiver behind a proxy's server block) or for a URL nothing should answer at.
//
// It is taken from below the kernel's ephemeral range, never from it: a port the kernel handed out once (listen on 0)
// is handed out again as the local port of any outgoing connection, and a test that binds it half a minute later then
// meets EADDRINUSE (CI saw it: the receiver's upstream port behind nginx taken by a run's own connection). Below that
// range only a listener that names the port takes it, and this checks none does.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 20_000;

function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(start) && start > LOWEST + 1_000 ? start : 32_768;
  } catch {
    return 32_768; // not Linux: the range most systems share (IANA's dynamic ports start at 49152, above it)
  }
}

function listensOn(port: number): Promise<number | undefined> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(port)));
  });
}

export async function freePort(): Promise<number> {
  const span = ephemeralStart() - LOWEST;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await listensOn(LOWEST + Math.floor(Math.random() * span));
    if (port !== undefined) return port;
  }
  throw new Error(`freePort: 50 ports between ${LOWEST} and ${LOWEST + span} were all taken`);
}
