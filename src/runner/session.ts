// The run's shared token: obtained once before the checks, handed to every check, revoked at the end so that a run
// leaves no live credential behind on the target.
import type { HttpResponse, SignedClient, ExchangeSink, RequestSpec } from '../http/client.js';
import { TransportError } from '../http/client.js';
import { TargetError } from '../errors.js';
import { parseJson } from '../http/json.js';
import { redirectNote } from './expect.js';

export interface TokenResult {
  token: string;
  /** The token record, whether the server wrapped it in the envelope or not. */
  record: Record<string, unknown>;
  enveloped: boolean;
}

/** Finds the token record in a token response: `{data: record, code, message}` or the bare record (spec: envelope "not shown"). */
export function tokenRecordOf(body: unknown): TokenResult | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const obj = body as Record<string, unknown>;
  const data = obj.data;
  if (typeof data === 'object' && data !== null && typeof (data as Record<string, unknown>).token === 'string') {
    return { token: (data as Record<string, string>).token!, record: data as Record<string, unknown>, enveloped: true };
  }
  if (typeof obj.token === 'string') return { token: obj.token, record: obj, enveloped: false };
  return undefined;
}

/** The token request a correct client sends: form-encoded credentials, signed, no Authorization and no X-Client-Id. */
export function tokenRequest(credentials: { clientId: string; clientSecret: string }): RequestSpec {
  return { method: 'POST', path: '/oauth/token', form: { clientId: credentials.clientId, clientSecret: credentials.clientSecret }, clientId: null, token: null };
}

export function revokeRequest(token: string): RequestSpec {
  return { method: 'POST', path: '/oauth/revoke', token };
}

/**
 * A shared token older than this is replaced: tokens live 60 minutes, and a --long run (which waits out a token's
 * lifetime) must not leave the checks after it with an expired one.
 */
export const TOKEN_REFRESH_AFTER_MS = 50 * 60 * 1000;

export class Session {
  private tokenPromise: Promise<TokenResult> | undefined;
  private obtainedAt = 0;
  /** Every token this session obtained, revoked at the end of the run. */
  private readonly issued: Array<Promise<TokenResult>> = [];

  constructor(
    private readonly client: SignedClient,
    private readonly clientSecret: string,
    private readonly sink: ExchangeSink,
  ) {}

  /** The shared token; the first call fetches it. A failure is a TargetError: no check can run without one. */
  token(): Promise<string> {
    return this.tokenResult().then((t) => t.token);
  }

  tokenResult(): Promise<TokenResult> {
    if (this.tokenPromise === undefined || Date.now() - this.obtainedAt > TOKEN_REFRESH_AFTER_MS) {
      this.obtainedAt = Date.now();
      this.tokenPromise = this.fetch();
      this.issued.push(this.tokenPromise);
    }
    return this.tokenPromise;
  }

  private async fetch(): Promise<TokenResult> {
    const { baseUrl, clientId } = this.client.identity;
    let res: HttpResponse;
    try {
      res = await this.client.send(tokenRequest({ clientId, clientSecret: this.clientSecret }), this.sink);
    } catch (e) {
      if (e instanceof TransportError) {
        throw new TargetError(`target unreachable: POST ${baseUrl}/oauth/token failed (${e.message}); check baseUrl and that the server is running`);
      }
      throw e;
    }
    const parsed = parseJson(res.text);
    const result = parsed.ok ? tokenRecordOf(parsed.value) : undefined;
    if (res.status < 200 || res.status > 299 || !result) {
      const why = res.status >= 200 && res.status <= 299 ? 'answered without a token in the body' : `answered ${res.status}${redirectNote(res)}`;
      throw new TargetError(`no token: POST ${baseUrl}/oauth/token ${why}; check clientId, clientSecret, keyId and the private key of this target`);
    }
    this.client.redactor.add(result.token);
    return result;
  }

  /** Revokes every token the session obtained. Problems are returned, not thrown: cleanup must not mask results. */
  async revoke(): Promise<string | undefined> {
    const problems: string[] = [];
    for (const pending of this.issued) {
      let token: string;
      try {
        token = (await pending).token;
      } catch {
        continue;
      }
      try {
        const res = await this.client.send(revokeRequest(token), this.sink);
        if (res.status < 200 || res.status > 299) problems.push(`revoking the run's token answered ${res.status}`);
      } catch (e) {
        problems.push(`revoking the run's token failed: ${(e as Error).message}`);
      }
    }
    return problems.length ? problems.join('; ') : undefined;
  }
}
