/** One storage slot per server, spelled like `ApiKeyStore` does, so both follow a server URL the same way. */
export function serverKey(prefix: string, serverUrl: string): string {
  return prefix + serverUrl.replace(/\/+$/, '').toLowerCase();
}
