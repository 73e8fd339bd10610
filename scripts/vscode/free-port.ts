// Finds a free TCP port on the loopback interface (we never bind anything else).
import * as net from 'node:net';

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const chosen = typeof address === 'object' && address ? address.port : undefined;
      server.close(() => resolve(chosen));
    });
  });
}

/** `preferred` when it is free, otherwise any free port the OS hands out. */
export async function freePort(preferred?: number): Promise<number> {
  if (preferred !== undefined) {
    const port = await tryListen(preferred);
    if (port !== undefined) return port;
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
