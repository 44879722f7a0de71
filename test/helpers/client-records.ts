// Synthetic client runs for the client checks: what a correct client's scenarios look like to the sandbox (every
// request signed with a real key, digested, answered), with one flaw at a time switched on. The times are made up and
// fixed (no clock of the test machine), so a wait of 1 s is exactly 1000 ms of receivedAt.
import { randomUUID } from 'node:crypto';
import { contentDigest } from '../../src/http/digest.js';
import { generateEd25519 } from '../../src/http/keys.js';
import { Redactor } from '../../src/http/redact.js';
import { profileComponents, signRequest, type SignOptions } from '../../src/http/signature.js';
import { recordedExchange } from '../../src/client/record.js';
import type {
  ClientRequest,
  ClientRunRecord,
  CommandEnd,
  SandboxAct,
  ScenarioName,
  ScenarioRecord,
} from '../../src/client/types.js';

const key = generateEd25519();
const BASE = 'https://127.0.0.1:8443/v1';
const T0 = 1_760_000_000_000;
const redactor = new Redactor([]);

/** One request of the client as a test describes it; what the builder does not get told, a correct client does. */
interface Send {
  method: string;
  /** Relative to the base URL, with the query. */
  path: string;
  body?: string;
  contentType?: string;
  status?: number;
  reply?: unknown;
  rejection?: { code: string; reason: string };
  /** Milliseconds after the previous request (default 20). */
  after?: number;
  /** The idempotency key of a mutating request, when the test chooses it (a retry repeats its request's key). */
  idempotencyKey?: string;
}

/** Where a test breaks the client: each hook sees every request of every scenario. */
export interface Flaws {
  /** Before signing: change headers (drop, add, alter) as the broken client would. */
  headers?: (h: Array<[string, string]>, s: Send & { scenario: ScenarioName }) => void;
  /** Signing options the broken client uses (another label, components, times…); `components`: a correct client's. */
  sign?: (s: Send & { scenario: ScenarioName }, created: number, components: string[]) => Partial<SignOptions>;
  /** After signing: the request is altered on its way (the body, a header). */
  afterSign?: (r: { headers: Array<[string, string]>; body: Buffer }, s: Send & { scenario: ScenarioName }) => void;
  /** The idempotency key of the n-th mutating request of the run. */
  idempotencyKey?: (n: number) => string;
  /** The token request's body in JSON instead of a form. */
  tokenAsJson?: boolean;
  /** read: page indices (page=1, 2) where the sandbox gave offsets. */
  pageIndex?: boolean;
  /** read: stops after the first page. */
  stopsAfterFirstPage?: boolean;
  /** token, read, update, ussd: never revokes. */
  noRevoke?: boolean;
  /** renew: gives up after the 401. */
  noRenew?: boolean;
  /** renew, with noRenew: revokes the ended token before giving up (clean-up, answered 401). */
  revokesDeadToken?: boolean;
  /** renew: retries the refused token once before renewing. */
  staleRetry?: boolean;
  /** renew: asks for tokens again and again. */
  tokenLoop?: boolean;
  /** throttle: retries after this many ms instead of Retry-After. */
  retryAfterMs?: number;
  /** throttle: attempts of the persistently throttled request (default 4). */
  persistentAttempts?: number;
  /** throttle: the command hangs until the time limit. */
  hangs?: boolean;
  /** ussd: builds the URL of the second choice itself. */
  buildsUssdUrl?: boolean;
  /** ussd: walks a route of its own over the given URLs: home, then option 1 twice (portfolio, assets). */
  ussdOwnRoute?: boolean;
  /** ussd: opens this view (a path with its query) instead of home, then takes option 1 (its own route). */
  ussdStart?: string;
  /** ussd: opens home, finds no option 2 (compares it as a string) and exits 1. */
  ussdGivesUp?: boolean;
  /** update: the PUT is answered 503 once and sent again, the same bytes with the same key (a retry). */
  retriesUpdate?: boolean;
}

const FIXTURES = {
  customerId: 1042,
  accountId: 5001,
  paginationCustomerId: 1077,
  mutableCustomerId: 1099,
};
const USSD_OPTIONS = [2, 1];
const TRANSACTIONS = 250;
const PAGE = 100;

let seq = 0;
let mutations = 0;

class Scenario {
  readonly requests: ClientRequest[] = [];
  readonly acts: SandboxAct[] = [];
  now = T0;
  private tokens = 0;
  readonly clientId: string;
  readonly keyId: string;

  constructor(
    readonly name: ScenarioName,
    readonly flaws: Flaws,
  ) {
    this.clientId = `client-${name}`;
    this.keyId = `key-${name}`;
  }

  send(s: Send, token?: string): ClientRequest {
    this.now += s.after ?? 20;
    const spec = { ...s, scenario: this.name };
    const url = `${BASE}${s.path}`;
    const body = Buffer.from(s.body ?? '', 'utf8');
    const headers: Array<[string, string]> = [];
    if (token !== undefined) headers.push(['authorization', `Bearer ${token}`]);
    if (body.length > 0) {
      headers.push(['content-digest', contentDigest(body)]);
      headers.push(['content-length', String(body.length)]);
      headers.push(['content-type', s.contentType ?? 'application/json']);
    }
    if (!(s.method === 'POST' && s.path === '/oauth/token')) headers.push(['x-client-id', this.clientId]);
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(s.method)) {
      mutations++;
      headers.push(['x-idempotency-key', s.idempotencyKey ?? this.flaws.idempotencyKey?.(mutations) ?? randomUUID()]);
    }
    this.flaws.headers?.(headers, spec);
    const created = Math.floor(this.now / 1000);
    const message = { method: s.method, url, headers };
    const components = profileComponents(message);
    const signed = signRequest(message, {
      keyId: this.keyId,
      privateKey: key.privateKeyPem,
      components,
      created,
      ...this.flaws.sign?.(spec, created, components),
    });
    headers.push(['signature-input', signed.signatureInput], ['signature', signed.signature]);
    const sent = { headers, body };
    this.flaws.afterSign?.(sent, spec);
    const status = s.status ?? 200;
    const n = ++seq;
    const replyBody = s.reply === undefined ? undefined : Buffer.from(JSON.stringify(s.reply));
    const request: ClientRequest = {
      seq: n,
      scenario: this.name,
      receivedAt: this.now,
      method: s.method,
      url,
      path: s.path,
      headers: sent.headers,
      body: sent.body,
      status,
      replyHeaders: {},
      reply: s.reply,
      ...(s.rejection ? { rejection: s.rejection } : {}),
      exchange: recordedExchange(
        {
          seq: n,
          label: this.name,
          startedAt: this.now,
          durationMs: 2,
          request: { method: s.method, url, headers: sent.headers, body: sent.body },
          response: { status, headers: [], ...(replyBody ? { body: replyBody } : {}) },
        },
        redactor,
      ),
    };
    this.requests.push(request);
    return request;
  }

  token(): string {
    const token = `tok-${this.name}-${++this.tokens}`;
    const form = new URLSearchParams({ clientId: this.clientId, clientSecret: 'secret' }).toString();
    const json = JSON.stringify({ clientId: this.clientId, clientSecret: 'secret' });
    this.send({
      method: 'POST',
      path: '/oauth/token',
      body: this.flaws.tokenAsJson ? json : form,
      contentType: this.flaws.tokenAsJson ? 'application/json' : 'application/x-www-form-urlencoded',
      reply: { code: '200', message: 'Success', data: { token, tokenId: `id-${token}`, tokenType: 'Bearer' } },
    });
    return token;
  }

  revoke(token: string): void {
    if (!this.flaws.noRevoke) this.send({ method: 'POST', path: '/oauth/revoke', status: 204 }, token);
  }

  record(end: Partial<CommandEnd> = {}, fixtures: Record<string, unknown> = FIXTURES): ScenarioRecord {
    return {
      scenario: this.name,
      clientId: this.clientId,
      keyId: this.keyId,
      publicKeyPem: key.publicKeyPem,
      baseUrl: BASE,
      fixtures,
      requests: this.requests,
      acts: this.acts,
      deliveries: [],
      accepted: [],
      end: {
        code: 0,
        signal: null,
        endedBy: 'exit',
        stderrTail: '',
        stdoutTail: '',
        durationMs: this.now - T0,
        ...end,
      },
    };
  }
}

function customer(s: Scenario, token: string): void {
  s.send(
    {
      method: 'GET',
      path: `/customers/${FIXTURES.customerId}`,
      reply: { code: '200', message: 'Success', data: { customerId: FIXTURES.customerId } },
    },
    token,
  );
}

function transactionsPage(offset: number): unknown {
  const count = Math.max(0, Math.min(PAGE, TRANSACTIONS - offset));
  return {
    code: '200',
    message: 'Success',
    data: Array.from({ length: count }, (_, i) => ({ transactionId: 90_000 + offset + i })),
    meta: {
      previousPage: Math.max(0, offset - PAGE),
      currentPage: offset,
      nextPage: offset + PAGE < TRANSACTIONS ? offset + PAGE : offset,
      limit: PAGE,
      currentCount: count,
      totalCount: TRANSACTIONS,
      sort: 'ASC',
    },
  };
}

/** The read task after the token: customer, accounts, every transaction (the sandbox pages by item offsets). */
function readTask(s: Scenario, tokenOf: () => string): void {
  customer(s, tokenOf());
  s.send(
    {
      method: 'GET',
      path: `/accounts?customerId=${FIXTURES.customerId}`,
      reply: { code: '200', message: 'Success', data: [], meta: {} },
    },
    tokenOf(),
  );
  const base = `/transactions?customerId=${FIXTURES.paginationCustomerId}`;
  s.send({ method: 'GET', path: base, reply: transactionsPage(0) }, tokenOf());
  if (s.flaws.stopsAfterFirstPage) return;
  for (const [i, offset] of [PAGE, 2 * PAGE].entries()) {
    const page = s.flaws.pageIndex ? i + 1 : offset;
    s.send({ method: 'GET', path: `${base}&page=${page}`, reply: transactionsPage(page) }, tokenOf());
  }
}

function tokenScenario(f: Flaws): ScenarioRecord {
  const s = new Scenario('token', f);
  const token = s.token();
  customer(s, token);
  s.revoke(token);
  return s.record();
}

function readScenario(f: Flaws): ScenarioRecord {
  const s = new Scenario('read', f);
  const token = s.token();
  readTask(s, () => token);
  s.revoke(token);
  return s.record();
}

function updateScenario(f: Flaws): ScenarioRecord {
  const s = new Scenario('update', f);
  const token = s.token();
  const update = {
    method: 'PUT',
    path: '/customers',
    body: JSON.stringify({ customerId: FIXTURES.mutableCustomerId, firstName: 'Ada' }),
    idempotencyKey: randomUUID(),
  };
  if (f.retriesUpdate)
    s.send({ ...update, status: 503, reply: { code: '503', message: 'Service Unavailable' } }, token);
  s.send(
    {
      ...update,
      reply: { code: '200', message: 'Success', data: { customerId: FIXTURES.mutableCustomerId, firstName: 'Ada' } },
    },
    token,
  );
  s.revoke(token);
  return s.record({}, { ...FIXTURES, firstName: 'Ada' });
}

function renewScenario(f: Flaws): ScenarioRecord {
  const s = new Scenario('renew', f);
  let token = s.token();
  customer(s, token);
  customer(s, token);
  const third = s.send(
    { method: 'GET', path: `/accounts?customerId=${FIXTURES.customerId}`, reply: { data: [] } },
    token,
  );
  s.acts.push({ kind: 'token-ended', afterSeq: third.seq, tokenIds: [`id-${token}`], at: s.now });
  const refused = {
    status: 401,
    reply: { code: 'TOKEN_REVOKED', message: 'Unauthorized' },
    rejection: { code: 'TOKEN_REVOKED', reason: 'the token was revoked by the sandbox' },
  };
  const base = `/transactions?customerId=${FIXTURES.paginationCustomerId}`;
  s.send({ method: 'GET', path: base, ...refused }, token);
  if (f.staleRetry) s.send({ method: 'GET', path: base, ...refused }, token);
  if (f.noRenew) {
    if (f.revokesDeadToken) s.send({ method: 'POST', path: '/oauth/revoke', ...refused }, token);
    return s.record({ code: 1 });
  }
  if (f.tokenLoop) for (let i = 0; i < 3; i++) s.token();
  token = s.token();
  s.send({ method: 'GET', path: base, reply: transactionsPage(0) }, token);
  s.send({ method: 'GET', path: `${base}&page=${PAGE}`, reply: transactionsPage(PAGE) }, token);
  s.send({ method: 'GET', path: `${base}&page=${2 * PAGE}`, reply: transactionsPage(2 * PAGE) }, token);
  s.revoke(token);
  return s.record();
}

function throttleScenario(f: Flaws): ScenarioRecord {
  const s = new Scenario('throttle', f);
  const token = s.token();
  const wait = f.retryAfterMs ?? 1000;
  const throttledReply = {
    status: 429,
    reply: { code: '429', message: 'Too Many Requests' },
    rejection: { code: 'TOO_MANY_REQUESTS', reason: 'throttled by the scenario' },
  };
  const first = s.send({ method: 'GET', path: `/customers/${FIXTURES.customerId}`, ...throttledReply }, token);
  s.acts.push({ kind: 'throttled', seq: first.seq, retryAfterSeconds: 1, at: s.now + 2, persistent: false });
  s.send({ method: 'GET', path: `/customers/${FIXTURES.customerId}`, after: wait + 2, reply: { data: {} } }, token);
  for (let i = 0; i < (f.persistentAttempts ?? 4); i++) {
    const r = s.send(
      {
        method: 'GET',
        path: `/accounts?customerId=${FIXTURES.customerId}`,
        after: i === 0 ? 20 : wait + 2,
        ...throttledReply,
      },
      token,
    );
    s.acts.push({ kind: 'throttled', seq: r.seq, retryAfterSeconds: 1, at: s.now + 2, persistent: true });
  }
  return s.record(f.hangs ? { code: null, signal: 'SIGKILL', endedBy: 'time-limit' } : { code: 1 });
}

function ussdView(options: Array<[number, string]>): unknown {
  return {
    code: '200',
    message: 'Success',
    data: {
      ussdMessage: options.map(([n]) => `${n}. choice`).join('\n'),
      ussdOptions: options.map(([option, path]) => ({ option, requestUrl: `${BASE}${path}`, requestType: 'GET' })),
    },
  };
}

function ussdScenario(f: Flaws): ScenarioRecord {
  const s = new Scenario('ussd', f);
  const token = s.token();
  const c = FIXTURES.customerId;
  const home = `/ussd/home?customerId=${c}`;
  const portfolio = `/ussd/portfolio?customerId=${c}`;
  const assets = `/ussd/assets?customerId=${c}`;
  const stocks = `/ussd/stocks?customerId=${c}&page=0`;
  const stock = `/ussd/stocks?customerId=${c}&symbol=AAPL&page=0`;
  const built = `/ussd/stocks?symbol=AAPL&customerId=${c}`;
  // The views, by the path the client requests (a built URL reaches the same view as the one given).
  const views: Record<string, Array<[number, string]>> = {
    [home]: [
      [1, portfolio],
      [2, stocks],
    ],
    [portfolio]: [
      [1, assets],
      [2, home],
    ],
    [stocks]: [
      [1, stock],
      [2, home],
    ],
    [stock]: [[1, home]],
    [built]: [[1, home]],
    [assets]: [[1, home]],
  };
  // The scenario's route is options 2, 1 from home: home, stocks, stock.
  const walk = f.ussdGivesUp
    ? [home]
    : f.ussdStart !== undefined
      ? [f.ussdStart, assets]
      : f.ussdOwnRoute
        ? [home, portfolio, assets]
        : [home, stocks, f.buildsUssdUrl ? built : stock];
  for (const path of walk) s.send({ method: 'GET', path, reply: ussdView(views[path] ?? views[portfolio]!) }, token);
  s.revoke(token);
  return s.record(f.ussdGivesUp ? { code: 1, stderrTail: 'the USSD view offers no option 2\n' } : {}, {
    ...FIXTURES,
    ussdOptions: USSD_OPTIONS,
  });
}

/** A client run over the six scenarios the checks of this worktree judge, with the flaws given (none: a correct client). */
export function clientRun(flaws: Flaws = {}): ClientRunRecord {
  return {
    command: ['test-client'],
    scenarios: {
      token: tokenScenario(flaws),
      read: readScenario(flaws),
      update: updateScenario(flaws),
      renew: renewScenario(flaws),
      throttle: throttleScenario(flaws),
      ussd: ussdScenario(flaws),
    },
  };
}
