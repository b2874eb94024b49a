/**
 * The requests Node's HTTP parser refuses before any route runs, answered as every other API error: the
 * `{data, error}` envelope with `X-Request-Id`, instead of Node's bare status line, so the document describes
 * them like any answer (and a typed client reads them as errors). Chiefly 431: a request line and headers over
 * Node's 16 KiB limit (an over-long URL or header), which any path can meet. Install on the listening server.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's own choice of status per parser error (lib/_http_server.js), with a message; anything else is a 400. */
const REFUSALS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    "The request line and headers exceed 16 KiB (Node's limit): shorten the URL or the headers",
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Payload Too Large', 'Chunk extensions too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'Malformed HTTP request'];

function answer([status, reason, message]: [number, string, string]): string {
  const body = JSON.stringify({ data: null, error: { message, code: status } });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Request-Id: ${randomUUID()}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

export function answerClientErrors(server: Server): void {
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException, socket: Duplex & { _httpMessage?: { headersSent?: boolean } }) => {
      // As Node does: never write into a response already under way on this socket (keep-alive).
      if (err.code !== 'ECONNRESET' && socket.writable && !socket._httpMessage?.headersSent)
        socket.write(answer(REFUSALS[err.code ?? ''] ?? MALFORMED));
      socket.destroy(err);
    },
  );
}
