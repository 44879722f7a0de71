// How the server keeps its connections (choice `connection`). The spec says nothing of them; RFC 9112 §9.6 lets a
// server close a persistent connection at any time, and live servers (and the proxies before them) do: every answer
// with Connection: close, or a kept-alive connection dropped while the client was about to reuse it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Choices } from './choices/index.js';

export interface ConnectionPolicy {
  /** Called before a request is handled; false when the request's connection was dropped and it gets no answer. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
}

export function connectionPolicy(choice: Choices['connection']): ConnectionPolicy {
  switch (choice) {
    case 'keep-alive':
      return { admit: () => true };
    case 'close':
      return {
        admit: (_req, res) => {
          // Node closes the socket once an answer with this field is sent.
          res.setHeader('Connection', 'close');
          return true;
        },
      };
    case 'drop-idle':
      return dropIdle();
  }
}

/**
 * A connection is dropped once it has carried an answer: the next request on it is met by a reset, as when a server's
 * idle timer closes the connection just as the client sends on it. The request is never read, so never acted on.
 */
function dropIdle(): ConnectionPolicy {
  const answered = new WeakSet<Socket>();
  return {
    admit: (req, res) => {
      const socket = req.socket;
      if (answered.has(socket)) {
        // A TLS socket's handle cannot be reset (ERR_INVALID_HANDLE_TYPE): it is closed instead (`serve --tls`).
        if (socket instanceof TLSSocket) socket.destroy();
        else socket.resetAndDestroy();
        return false;
      }
      res.once('finish', () => answered.add(socket));
      return true;
    },
  };
}
