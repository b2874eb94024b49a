/**
 * The commands written to a Redis connection in one event-loop turn leave in one `writev` (and Redis reads them in
 * one read): the socket is corked at the turn's first write and uncorked in the turn's check phase. Under load a
 * turn resumes many requests at once (one read of replies settles dozens of commands), so their next commands
 * share a syscall. This is the part of ioredis' auto-pipelining that is cheap; its Pipeline per batch and its
 * wait for the previous batch's replies are what client.ts turns off. A big command (a member PATCH's script
 * call with its 25 events, ~25 KB) leaves at once with what is queued: Redis starts on it a turn earlier, and
 * holding it back measured slower (docs/design/performance.md, "A turn's commands in one write").
 */
import type { Socket } from 'node:net';

/** Queued bytes past which the socket is written at once. */
export const FLUSH_AT_BYTES = 16_384;

/** Patches `socket.write` (ioredis writes every command through it); called once per connection. */
export function coalesceWrites(socket: Socket): void {
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    socket.uncork();
  };
  const write = socket.write;
  socket.write = function (this: Socket, ...args: Parameters<Socket['write']>) {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    const result = write.apply(this, args);
    if (socket.writableLength > FLUSH_AT_BYTES) {
      corked = false;
      socket.uncork();
    }
    return result;
  } as Socket['write'];
}
