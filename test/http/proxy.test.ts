// A proxy's own error page is told as the proxy's (issue 26): the pages and fields real proxies send, as they send them.
import { describe, expect, it } from 'vitest';
import { proxyErrorPage, proxyOf, type Answer } from '../../src/http/proxy.js';

function answer(status: number, headers: Record<string, string>, text: string): Answer {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { status, header: (name) => lower[name.toLowerCase()], text };
}

/** nginx 1.22's own 502 page, byte for byte. */
const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n';
const HTML = { 'Content-Type': 'text/html' };

describe('proxyOf', () => {
  it('names a proxy by its Server field, or by Via, and nothing else', () => {
    expect(proxyOf(answer(200, { Server: 'nginx/1.22.1' }, ''))).toBe('Server: nginx/1.22.1');
    expect(proxyOf(answer(200, { Server: 'awselb/2.0' }, ''))).toBe('Server: awselb/2.0');
    expect(proxyOf(answer(200, { Server: 'istio-envoy' }, ''))).toBe('Server: istio-envoy');
    expect(proxyOf(answer(200, { Server: 'cloudflare' }, ''))).toBe('Server: cloudflare');
    expect(proxyOf(answer(200, { Via: '1.1 varnish (Varnish/7.1)' }, ''))).toBe('Via: 1.1 varnish (Varnish/7.1)');
    expect(proxyOf(answer(200, { Server: 'Kestrel' }, ''))).toBeUndefined();
    expect(proxyOf(answer(200, {}, ''))).toBeUndefined();
  });
});

describe('proxyErrorPage', () => {
  it("tells nginx's 502 page as the proxy's: the server behind it did not answer", () => {
    const page = proxyErrorPage(answer(502, { Server: 'nginx/1.22.1', ...HTML }, NGINX_502));
    expect(page?.text).toBe(
      'the proxy in front of the server (Server: nginx/1.22.1) answered 502 with its own error page: the server behind it did not answer; check that it runs and that the proxy points at it',
    );
  });

  it("tells an AWS load balancer's 504 and Envoy's plain-text 503 as theirs", () => {
    const alb = proxyErrorPage(
      answer(
        504,
        { Server: 'awselb/2.0', ...HTML },
        '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n</body>\r\n</html>\r\n',
      ),
    );
    expect(alb?.text).toBe(
      "the proxy in front of the server (Server: awselb/2.0) answered 504 with its own error page: the server behind it did not answer in time; check that it runs, and the proxy's time-out for it",
    );
    const envoy = proxyErrorPage(
      answer(
        503,
        { server: 'envoy', 'content-type': 'text/plain' },
        'upstream connect error or disconnect/reset before headers. reset reason: connection failure',
      ),
    );
    expect(envoy?.text).toBe(
      'the proxy in front of the server (Server: envoy) answered 503 with its own error page: no server behind it was available; check that it runs and that the proxy points at it',
    );
  });

  it('quotes the page where it says more than the status: nginx refusing plain HTTP on its TLS port', () => {
    const page = proxyErrorPage(
      answer(
        400,
        { Server: 'nginx', ...HTML },
        '<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>…</body></html>',
      ),
    );
    expect(page?.text).toBe(
      'the proxy in front of the server (Server: nginx) answered 400 with its own error page ("400 The plain HTTP request was sent to HTTPS port"): it refused the request itself, and the server never saw it; its page says why',
    );
  });

  it("tells a gateway's HTML 502 that names no proxy as a proxy's all the same", () => {
    expect(proxyErrorPage(answer(502, HTML, '<html><body><h1>502 Bad Gateway</h1></body></html>'))?.text).toBe(
      'the proxy in front of the server answered 502 with its own error page: the server behind it did not answer; check that it runs and that the proxy points at it',
    );
  });

  it("leaves the server's own answers to it: JSON relayed by a proxy, an HTML 503 naming no proxy, Apache's 500", () => {
    expect(
      proxyErrorPage(answer(502, { Server: 'nginx', 'Content-Type': 'application/json' }, '{"code":"502"}')),
    ).toBeUndefined();
    expect(proxyErrorPage(answer(503, HTML, '<html><body>Down for maintenance</body></html>'))).toBeUndefined();
    expect(
      proxyErrorPage(answer(500, { Server: 'Apache/2.4.57 (Debian)', ...HTML }, '<!DOCTYPE HTML><title>500</title>')),
    ).toBeUndefined();
    expect(proxyErrorPage(answer(200, { Server: 'nginx', ...HTML }, NGINX_502))).toBeUndefined();
  });
});
