// A second loopback origin, the one a hostile target points its redirects and links at. It answers like a friendly
// API would (so following it would look like success) and records every request, so a test can prove that the run's
// credentials (Authorization, Signature, X-Client-Id) never reached it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ForeignRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
}

export interface Foreign {
  origin: string;
  received: ForeignRequest[];
  /** Requests that carried any of the client's credentials. */
  withCredentials(): ForeignRequest[];
  close(): Promise<void>;
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'signature', 'signature-input', 'x-client-id']);

export async function startForeign(): Promise<Foreign> {
  const received: ForeignRequest[] = [];
  const server: Server = createServer((req, res) => {
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i]!, req.rawHeaders[i + 1]!]);
    received.push({ method: req.method ?? '?', url: req.url ?? '/', headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{},"code":"200","message":"Success"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    withCredentials: () => received.filter((r) => r.headers.some(([n]) => CREDENTIAL_HEADERS.has(n.toLowerCase()))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
