// Area `ussd.params`: invalid query values are refused or handled.
import { defineCheck, type CheckContext } from '../../src/engine/index.js';
import {
  describeResponse,
  parseJson,
  readEnvelope,
  redirectNote,
  validateAgainst,
  type HttpResponse,
} from '../kit/index.js';
import { ussdDataOf } from './helpers/crawler.js';
import { resolveUrl } from './helpers/url.js';
import { requestUrlOf } from './helpers/menu-graph.js';
import { answerLine, skipUnjudged } from './helpers/verdicts.js';

/** A value outside its parameter's domain, sent to one view with the fixture's customerId and nothing else. */
interface InvalidValue {
  endpoint: 'stocks' | 'assets' | 'requests';
  param: string;
  value: string;
  /** The parameter's row, and the Limits row for a negative page. */
  requirements: string[];
}

const INVALID_PAGES = ['-1', 'x', '1.5'];

/** "page | integer >= 0" on each view. */
const PAGE_ROWS = { stocks: 'REQ-USSD-07', requests: 'REQ-USSD-15', assets: 'REQ-USSD-20' } as const;

// Only parameters whose every reading, by the most lenient server, is a read. Never amount (it places an order) or
// cancelMode (it cancels one), which is why REQ-USSD-05 and REQ-USSD-14 have no check. inputMode=maybe read as true
// opens an amount prompt at most: an order needs an amount, and no amount (nor even an instrument) is sent.
// searchMode only searches, detail only shows more, and requestId without cancelMode names a request to show.

/** Outside a closed domain the parameter rows state (REQ-USSD-10): refusing them is MUST. */
const OUT_OF_DOMAIN: readonly InvalidValue[] = [
  ...(['stocks', 'requests', 'assets'] as const).flatMap((endpoint) =>
    INVALID_PAGES.map((value): InvalidValue => ({
      endpoint,
      param: 'page',
      value,
      requirements: [PAGE_ROWS[endpoint], ...(Number(value) < 0 ? ['REQ-LIM-02'] : [])],
    })),
  ),
  { endpoint: 'requests', param: 'requestId', value: 'abc', requirements: ['REQ-USSD-16'] },
  { endpoint: 'requests', param: 'status', value: 'FOO', requirements: ['REQ-USSD-17'] },
];

/** Not a boolean however a boolean is written (REQ-USSD-25): refusing them is SHOULD, not crashing on them MUST. */
const NOT_BOOLEANS: readonly InvalidValue[] = [
  { endpoint: 'stocks', param: 'inputMode', value: 'maybe', requirements: ['REQ-USSD-06'] },
  { endpoint: 'stocks', param: 'searchMode', value: 'maybe', requirements: ['REQ-USSD-08'] },
  { endpoint: 'assets', param: 'detail', value: 'maybe', requirements: ['REQ-USSD-21'] },
];

interface ProbeProblem {
  res: HttpResponse;
  message: string;
  requirements: string[];
}

async function sendInvalid(ctx: CheckContext, customerId: number, v: InvalidValue): Promise<HttpResponse> {
  return ctx.send({ method: 'GET', path: `/ussd/${v.endpoint}`, query: { customerId, [v.param]: v.value } });
}

function invalidText(v: InvalidValue): string {
  return `GET /ussd/${v.endpoint} with ${v.param}=${v.value}`;
}

function isRefusal(res: HttpResponse): boolean {
  return res.status >= 400 && res.status <= 499;
}

/** A value outside a closed domain that was not refused (a 5xx is no refusal); undefined when it was. */
function notRefused(v: InvalidValue, res: HttpResponse): ProbeProblem | undefined {
  if (isRefusal(res)) return undefined;
  const requirements = ['REQ-USSD-10', ...v.requirements];
  if (res.status >= 500)
    return {
      res,
      message: `${invalidText(v)} answered ${res.status}: the server failed instead of refusing the value`,
      requirements,
    };
  // A menu served for a negative page may offer another one: said, as it shows what the server made of the value.
  const parsed = res.status === 200 ? parseJson(res.text) : undefined;
  const data = parsed?.ok ? ussdDataOf(parsed.value) : undefined;
  const negative = data ? negativePageLinks(data.options, res.exchange.request.url) : [];
  return {
    res,
    message: `${invalidText(v)} answered ${answerLine(res)}${redirectNote(res)}: the value was not refused (a value clamped or ignored is no refusal)${negative.length > 0 ? `; the menu even leads to a negative page: ${negative[0]}` : ''}`,
    requirements,
  };
}

/** A boolean switch given "maybe": no 5xx, and a 2xx is a USSD view. Undefined when it holds. */
function booleanUnhandled(ctx: CheckContext, v: InvalidValue, res: HttpResponse): ProbeProblem | undefined {
  if (res.status >= 500)
    return {
      res,
      message: `${invalidText(v)} answered ${res.status}: the server failed instead of refusing the value`,
      requirements: v.requirements,
    };
  if (res.status < 200 || res.status > 299) return undefined;
  const parsed = parseJson(res.text);
  const body = parsed.ok ? parsed.value : undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      res,
      message: `${invalidText(v)} answered ${res.status} with ${parsed.ok ? 'JSON that is not an object' : 'a body that is not JSON'}, not a USSD view`,
      requirements: [...v.requirements, 'REQ-USSD-01'],
    };
  }
  const env = readEnvelope(ctx, res);
  const shape = validateAgainst('ussd-view', env.data, 'data');
  if (shape.length === 0) return undefined;
  return {
    res,
    message: `${invalidText(v)} answered ${res.status} with no USSD view: ${shape
      .slice(0, 3)
      .map((p) => `${p.path} ${p.message}`)
      .join('; ')}`,
    requirements: [...v.requirements, 'REQ-USSD-01'],
  };
}

/** Fails with the first problem and its exchange, listing the others. */
function failProbes(ctx: CheckContext, problems: ProbeProblem[], expected: string): void {
  const first = problems[0];
  if (!first) return;
  const others = problems.slice(1).map((p) => `- ${p.message}`);
  ctx.fail(first.message, {
    expected,
    observed: [describeResponse(first.res), ...(others.length > 0 ? [`${others.length} more:`, ...others] : [])].join(
      '\n',
    ),
    exchange: first.res.exchange,
    requirements: [...new Set(problems.flatMap((p) => p.requirements))],
  });
}

/** Follow-up URLs that ask for a negative page ("page | integer >= 0"): a choice that leads before the first page. */
export function negativePageLinks(options: readonly unknown[], viewUrl: string): string[] {
  return options.flatMap((raw, i) => {
    const url = requestUrlOf(raw);
    const u = typeof url === 'string' ? resolveUrl(url.trim(), viewUrl) : undefined;
    const pages = u ? u.searchParams.getAll('page').filter((p) => Number(p) < 0) : [];
    return pages.length === 0
      ? []
      : [
          `option ${JSON.stringify((raw as { option?: unknown }).option)} (ussdOptions[${i}]) → ${url}: page ${pages.join(', ')}`,
        ];
  });
}

export const paramsChecks = [
  defineCheck({
    id: 'ussd.params.domain-refused',
    title:
      'A page below 0 or not an integer, a requestId that is not an integer, a status outside PENDING, COMPLETED, CANCELED, ERROR is refused (any 4xx)',
    level: 'MUST',
    requirements: [
      'REQ-USSD-10',
      'REQ-USSD-07',
      'REQ-USSD-15',
      'REQ-USSD-16',
      'REQ-USSD-17',
      'REQ-USSD-20',
      'REQ-LIM-02',
    ],
    explain: {
      sends:
        'for the fixture customer, one value at a time: /ussd/stocks, /ussd/requests and /ussd/assets with page=-1, x or 1.5; /ussd/requests with requestId=abc and with status=FOO (never amount or cancelMode, which place or cancel orders)',
      passes: 'each is refused (any 4xx): the value is outside the closed domain its parameter row states',
      fails:
        'a 2xx (the value clamped or ignored, or served as is), a redirect or a 5xx (a crash is no refusal): the check fails, naming the value and what was served',
    },
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const problems: ProbeProblem[] = [];
      const seen: string[] = [];
      for (const v of OUT_OF_DOMAIN) {
        const res = await sendInvalid(ctx, customerId, v);
        seen.push(`${v.endpoint} ${v.param}=${v.value}: ${res.status}`);
        const problem = notRefused(v, res);
        ctx.judged(invalidText(v));
        if (problem) problems.push(problem);
      }
      ctx.observe(seen.join('; '));
      failProbes(
        ctx,
        problems,
        'a value outside the closed domain of its parameter is refused (any 4xx): page is an integer >= 0, requestId an integer, status one of PENDING, COMPLETED, CANCELED, ERROR',
      );
    },
  }),
  defineCheck({
    id: 'ussd.params.boolean-handled',
    title:
      'A boolean switch given a value that is not a boolean (inputMode, searchMode, detail = maybe) never crashes a view',
    level: 'MUST',
    requirements: ['REQ-USSD-01', 'REQ-USSD-06', 'REQ-USSD-08', 'REQ-USSD-21'],
    explain: {
      sends:
        'for the fixture customer, one value at a time: /ussd/stocks with inputMode=maybe and with searchMode=maybe, /ussd/assets with detail=maybe (never cancelMode, which cancels orders)',
      passes: 'each is refused (any 4xx), or served as a USSD view',
      fails:
        'a 5xx, or a 2xx that is no USSD view: the check fails; refusing the value is ussd.params.boolean-refused (SHOULD)',
    },
    async run(ctx) {
      // Refusing the value is the SHOULD (ussd.params.boolean-refused): how a boolean is written is not shown.
      const customerId = ctx.fixture('customerId');
      const problems: ProbeProblem[] = [];
      const seen: string[] = [];
      for (const v of NOT_BOOLEANS) {
        const res = await sendInvalid(ctx, customerId, v);
        seen.push(`${v.endpoint} ${v.param}=${v.value}: ${res.status}`);
        const problem = booleanUnhandled(ctx, v, res);
        ctx.judged(invalidText(v));
        if (problem) problems.push(problem);
      }
      ctx.observe(seen.join('; '));
      failProbes(
        ctx,
        problems,
        'a value that is not a boolean is refused (any 4xx) or served as a USSD view; never a 5xx',
      );
    },
  }),
  defineCheck({
    id: 'ussd.params.boolean-refused',
    title:
      'A boolean switch given a value that is not a boolean (inputMode, searchMode, detail = maybe) is refused (any 4xx)',
    level: 'SHOULD',
    requirements: ['REQ-USSD-25'],
    explain: {
      sends:
        'for the fixture customer, one value at a time: /ussd/stocks with inputMode=maybe and with searchMode=maybe, /ussd/assets with detail=maybe (never cancelMode, which cancels orders)',
      passes: 'each is refused (any 4xx)',
      fails:
        'a 2xx or a redirect (the value was not refused): the check warns; a 5xx is left to ussd.params.boolean-handled',
    },
    async run(ctx) {
      const customerId = ctx.fixture('customerId');
      const problems: ProbeProblem[] = [];
      for (const v of NOT_BOOLEANS) {
        const res = await sendInvalid(ctx, customerId, v);
        if (isRefusal(res)) {
          ctx.judged(invalidText(v));
          continue;
        }
        // A 5xx is ussd.params.boolean-handled's failure, not a second one here.
        if (res.status >= 500)
          ctx.observe(`${invalidText(v)} answered ${res.status}: judged by ussd.params.boolean-handled`);
        else
          problems.push({
            res,
            message: `${invalidText(v)} answered ${res.status}${redirectNote(res)}: the value was not refused`,
            requirements: ['REQ-USSD-25'],
          });
      }
      failProbes(
        ctx,
        problems,
        'a value that is not a boolean is refused (any 4xx): "maybe" is true or false in no writing of a boolean',
      );
      skipUnjudged(
        ctx,
        `every value answered 5xx (${NOT_BOOLEANS.map(invalidText).join('; ')}): a crash is judged by ussd.params.boolean-handled, and whether the value is refused was not seen`,
      );
    },
  }),
];
