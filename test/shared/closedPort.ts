// A loopback port where nothing listens (it was free a moment ago): a server that refuses at once.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** `127.0.0.1:<port>` with nothing listening. */
export async function closedHostPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `127.0.0.1:${port}`;
}
