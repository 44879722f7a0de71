// The session of a pack whose checks send nothing and judge traffic they were given (`conformance client`'s record,
// `conformance judge`'s HAR, what `conformance proxy` saw): no token, nothing to renew, take turns over or close.
import type { RunSession } from '../../src/engine/index.js';
import type { HttpResponse } from '../../src/http/client.js';

export abstract class ObservingSession implements RunSession {
  /** Gets what the checks judge, before the first check. */
  abstract open(): Promise<void>;

  token(): Promise<string> {
    return Promise.reject(new Error('these checks send no request'));
  }

  withToken(): Promise<HttpResponse> {
    return Promise.reject(new Error('these checks send no request'));
  }

  accepts(): Promise<boolean> {
    return Promise.resolve(false);
  }

  sendChanging(_state: string, send: () => Promise<HttpResponse>): Promise<HttpResponse> {
    return send();
  }

  runCheck(_check: unknown, body: () => Promise<void>): Promise<void> {
    return body();
  }

  notes(): string[] {
    return [];
  }

  close(): Promise<string | undefined> {
    return Promise.resolve(undefined);
  }
}
