// uvicorn 0.54 (wsproto) keepalive: a protocol Ping every interval; no Pong within the same interval
// closes the socket 1011 "keepalive ping timeout". Returns the function that stops it.
import { WebSocket } from 'ws';

export function startKeepalive(socket: WebSocket, intervalMs: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  let awaitingPong = false;
  const arm = (ms: number, action: () => void): void => {
    timer = setTimeout(action, ms);
    timer.unref();
  };
  const schedulePing = (): void =>
    arm(intervalMs, () => {
      if (socket.readyState !== WebSocket.OPEN) return;
      socket.ping();
      awaitingPong = true;
      arm(intervalMs, () => socket.close(1011, 'keepalive ping timeout'));
    });
  socket.on('pong', () => {
    if (!awaitingPong) return;
    awaitingPong = false;
    clearTimeout(timer);
    schedulePing();
  });
  schedulePing();
  return () => clearTimeout(timer);
}
