// A loopback port free at this moment (the kernel's pick), for a program that must be told its port before it starts
// (nginx, squid, a receiver behind a proxy's server block): it binds it right after.
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
