// The correct client with ONE flaw, named by the first argument (flaws.ts lists them and the check each must fail):
// `conformance client --scenario token -- node dist/examples/clients/ts/broken.js reused-idempotency-key`.
import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import {
  profileComponents,
  type SignatureVerdict,
  type SignOptions,
  type VerifyOptions,
} from 'investment-api-conformance/signing';
import { Client, main, type Delivery, type Env, type Outgoing, type UssdOption, type UssdView } from './client.js';
import { FLAWS, type FlawName } from './flaws.js';

/** The client without one header of the common request rules. */
const without = (header: string) =>
  class extends Client {
    protected override headersOf(out: Outgoing): Array<[string, string]> {
      return super.headersOf(out).filter(([name]) => name.toLowerCase() !== header);
    }
  };

const BROKEN: Record<FlawName, new (env: Env) => Client> = {
  'bad-signature': class extends Client {
    private readonly otherKey = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' });
    protected override signOptions(out: Outgoing, headers: Array<[string, string]>): SignOptions {
      return { ...super.signOptions(out, headers), privateKey: this.otherKey };
    }
  },
  'uncovered-header': class extends Client {
    protected override signOptions(out: Outgoing, headers: Array<[string, string]>): SignOptions {
      const components = profileComponents({ method: out.method, url: out.url, headers });
      return { ...super.signOptions(out, headers), components: components.filter((c) => c !== 'x-client-id') };
    }
  },
  'stale-created': class extends Client {
    protected override signOptions(out: Outgoing, headers: Array<[string, string]>): SignOptions {
      return { ...super.signOptions(out, headers), created: Math.floor(Date.now() / 1000) - 600 };
    }
  },
  'no-digest': without('content-digest'),
  'no-client-id': without('x-client-id'),
  'no-authorization': without('authorization'),
  'no-idempotency-key': without('x-idempotency-key'),
  'reused-idempotency-key': class extends Client {
    private readonly key = randomUUID();
    protected override idempotencyKey(): string {
      return this.key;
    }
  },
  'json-token-request': class extends Client {
    protected override tokenRequestBody(): { text: string; type: string } {
      const { clientId, clientSecret } = this.env;
      return { text: JSON.stringify({ clientId, clientSecret }), type: 'application/json' };
    }
  },
  'no-revoke': class extends Client {
    override async revoke(): Promise<void> {}
  },
  'page-index': class extends Client {
    protected override nextPage(meta: Record<string, unknown>, count: number, pages: number): number | undefined {
      const { limit, totalCount } = meta;
      if (typeof limit !== 'number' || typeof totalCount !== 'number') return super.nextPage(meta, count, pages);
      return pages * limit < totalCount ? pages : undefined;
    }
  },
  'first-page-only': class extends Client {
    protected override nextPage(): number | undefined {
      return undefined;
    }
  },
  'no-renewal': class extends Client {
    protected override async recover(): Promise<boolean> {
      return false;
    }
  },
  'stale-token-reused': class extends Client {
    protected override async recover(failures: number): Promise<boolean> {
      // The first 401 is taken for a hiccup: the same token again, then a new one.
      return failures === 1 ? true : super.recover(failures - 1);
    }
  },
  'ignores-retry-after': class extends Client {
    protected override retryDelayMs(retryAfter: string | undefined, retry: number): number | undefined {
      return super.retryDelayMs(retryAfter, retry) === undefined ? undefined : 0;
    }
  },
  'retries-forever': class extends Client {
    protected override retryDelayMs(retryAfter: string | undefined): number | undefined {
      return super.retryDelayMs(retryAfter, 1);
    }
  },
  'builds-ussd-urls': class extends Client {
    protected override followUrl(given: string): string {
      const url = new URL(super.followUrl(given));
      const params = [...url.searchParams].reverse();
      // One parameter has no order to change: name the first page, which the menu shows anyway.
      if (params.length < 2) params.push(['page', '0']);
      return `${this.env.baseUrl}${url.pathname.replace(/^\/v1/, '')}?${new URLSearchParams(params).toString()}`;
    }
  },
  'ussd-option-as-string': class extends Client {
    // A key press arrives as text: "4" is compared with the number the view gives, and never equals it.
    protected override ussdOption(view: UssdView, choice: number): UssdOption | undefined {
      const typed: unknown = String(choice);
      return (Array.isArray(view.ussdOptions) ? view.ussdOptions : []).find((o) => o.option === typed);
    }
  },
  'accepts-forged-deliveries': class extends Client {
    protected override accepts(): boolean {
      return true;
    }

    protected override firstTime(): boolean {
      return true;
    }
  },
  'skips-digest-check': class extends Client {
    protected override digestOk(): boolean {
      return true;
    }
  },
  'skips-signature-check': class extends Client {
    // Every other rule is checked before the Ed25519 operation, so SIGNATURE_INVALID is "all but the signature passed".
    protected override signatureOk(verdict: SignatureVerdict): boolean {
      return verdict.ok || verdict.code === 'SIGNATURE_INVALID';
    }
  },
  'skips-window-check': class extends Client {
    protected override verifyOptions(key: KeyObject): VerifyOptions {
      return { ...super.verifyOptions(key), requireCreated: false, requireExpires: false, skewSeconds: Infinity };
    }
  },
  'answers-200-to-forged': class extends Client {
    protected override discardStatus(): number {
      return 200;
    }
  },
  'rejects-all-deliveries': class extends Client {
    protected override accepts(_delivery: Delivery): boolean {
      return false;
    }
  },
  'unregistered-receiver': class extends Client {
    protected override async register(): Promise<void> {}
  },
};

const name = process.argv[2];
if (name === undefined || !Object.hasOwn(FLAWS, name)) {
  process.stderr.write(
    `${name === undefined ? 'no flaw named' : `unknown flaw ${JSON.stringify(name)}`}: give one of ${Object.keys(FLAWS).join(', ')}\n`,
  );
  process.exit(2);
}
const Broken = BROKEN[name as FlawName];
main((env) => new Broken(env));
