// A small forward proxy for the tests that need no squid: it opens CONNECT tunnels (counting them and the
// Proxy-Authorization each carried), or refuses them with the status a test names (407, 403, 502), as proxies do.
import { createServer, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ConnectProxy {
  url: string;
  /** Every CONNECT received: its target (host:port) and its Proxy-Authorization, if any. */
  connects: Array<{ target: string; authorization?: string }>;
  close(): Promise<void>;
}

export interface ConnectProxyOptions {
  /** Answer every CONNECT with this status instead of opening the tunnel. */
  refuse?: number;
  /** Open the tunnel only for this Proxy-Authorization value; 407 otherwise. */
  authorization?: string;
}

export async function startConnectProxy(options: ConnectProxyOptions = {}): Promise<ConnectProxy> {
  const connects: ConnectProxy['connects'] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.writeHead(501).end();
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    const authorization = req.headers['proxy-authorization'];
    connects.push({ target, ...(authorization !== undefined ? { authorization } : {}) });
    const refuse =
      options.refuse ??
      (options.authorization !== undefined && authorization !== options.authorization ? 407 : undefined);
    if (refuse !== undefined) {
      const auth = refuse === 407 ? 'Proxy-Authenticate: Basic realm="test"\r\n' : '';
      client.end(`HTTP/1.1 ${refuse} Refused\r\n${auth}Content-Length: 0\r\n\r\n`);
      return;
    }
    const at = target.lastIndexOf(':');
    const upstream = connect(Number(target.slice(at + 1)), target.slice(0, at).replace(/^\[(.*)\]$/, '$1'), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
