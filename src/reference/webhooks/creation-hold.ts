// deliveryOrder=any-order: an AUTH.CREATED delivery held back until the next event about its token (the revoke) has
// been queued, so that the revoke is delivered first. When no such event comes the creation goes alone after a while.
// How long "a while" is must not let the creation go while the server itself keeps the client from sending its revoke:
// a 429 (rate limit) tells the client to wait until the window ends, so the hold lasts HOLD_MS past that end.

/** How long a creation waits for its token's next event, counted from the creation or from a 429's window end. */
export const HOLD_MS = 1_000;
/** The most a creation is held, whatever the 429s: a check waiting for the creation alone still gets it in time. */
export const MAX_HOLD_MS = 5_000;

interface Held {
  clientId: string;
  heldAt: number;
  due: number;
  timer?: NodeJS.Timeout;
  release: () => void;
}

export class CreationHolds {
  private readonly held = new Map<string, Held>();

  /** `clock` is the server's clock (ms); `onLetGo` learns when a held creation left, by its time or by its token. */
  constructor(
    private readonly clock: () => number,
    private readonly onLetGo: () => void,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** Holds the creation of `tokenId` (a client's) until release(tokenId), or until it is due. */
  hold(tokenId: string, clientId: string, deliver: () => void): void {
    const now = this.clock();
    const entry: Held = { clientId, heldAt: now, due: now + HOLD_MS, release: deliver };
    this.held.set(tokenId, entry);
    this.arm(tokenId, entry);
  }

  /** The token's next event was queued: its creation goes now, behind it. */
  release(tokenId: string): void {
    const entry = this.held.get(tokenId);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.letGo(tokenId, entry);
  }

  /** The client was answered 429 until `until` (the server's clock): its held creations wait for that, and HOLD_MS more. */
  throttled(clientId: string, until: number): void {
    for (const [tokenId, entry] of this.held) {
      if (entry.clientId !== clientId) continue;
      const due = Math.min(entry.heldAt + MAX_HOLD_MS, Math.max(entry.due, until + HOLD_MS));
      if (due === entry.due) continue;
      entry.due = due;
      clearTimeout(entry.timer);
      this.arm(tokenId, entry);
    }
  }

  /** Drops every held creation undelivered (the server is closing). */
  clear(): void {
    for (const entry of this.held.values()) clearTimeout(entry.timer);
    this.held.clear();
  }

  private arm(tokenId: string, entry: Held): void {
    entry.timer = setTimeout(() => this.letGo(tokenId, entry), Math.max(0, entry.due - this.clock()));
  }

  private letGo(tokenId: string, entry: Held): void {
    this.held.delete(tokenId);
    entry.release();
    this.onLetGo();
  }
}
