// The nginx harness itself: a prefix location forwarded to the root reaches the upstream with the path rewritten, and
// the access log records the request as the client sent it.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NGINX_MISSING, skipWithoutNginx, startNginx, type Nginx } from '../helpers/nginx.js';

describe.skipIf(skipWithoutNginx)(`nginx harness${NGINX_MISSING ? ` (${NGINX_MISSING})` : ''}`, () => {
  const upstream = createServer((req, res) => res.end(`${req.url} ${req.headers.host}`));
  let nginx: Nginx;
  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as { port: number }).port;
    nginx = await startNginx({
      ports: ['front'],
      http: (p) => `server { listen 127.0.0.1:${p.front}; location /hook/ { proxy_pass http://127.0.0.1:${port}/; } }`,
    });
  });
  afterAll(async () => {
    await nginx?.stop();
    upstream.close();
  });

  it('forwards a prefix to the root and logs the request as sent', async () => {
    const res = await fetch(`http://127.0.0.1:${nginx.port('front')}/hook/x?y=1`);
    const port = (upstream.address() as { port: number }).port;
    expect(await res.text()).toBe(`/x?y=1 127.0.0.1:${port}`);
    expect(nginx.accessLog()).toContain('"GET /hook/x?y=1 HTTP/1.1" 200');
  });
});
