// A TCP relay on this machine's first non-loopback IPv4 address to a loopback server, so a UI test can
// use an http:// URL that is "another machine" to the extension while the seeded test server answers.
import * as net from 'node:net';
import * as os from 'node:os';

export interface LanProxy {
  url: string;
  close(): Promise<void>;
}

/** Undefined when the machine has no non-loopback IPv4 address. */
export async function startLanProxy(targetPort: number): Promise<LanProxy | undefined> {
  const address = Object.values(os.networkInterfaces())
    .flat()
    .find((nic) => nic && !nic.internal && nic.family === 'IPv4')?.address;
  if (!address) return undefined;
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(0, address, resolve);
  });
  const { port } = relay.address() as net.AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        relay.close(() => resolve());
      }),
  };
}
