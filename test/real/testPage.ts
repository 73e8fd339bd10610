// The page the agent's browser opens in test:real: one small HTML page with a visible heading, served
// by the test itself on 127.0.0.1 (the sandbox's Chromium runs on this machine), so browsing needs no
// network. It records the paths asked for: a screenshot of it is then known to come from a real visit.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const TEST_PAGE_HEADING = 'Hello from the test page';
/** The page's one interactive element: what `browser_get_state` lists of it. */
export const TEST_PAGE_BUTTON = 'A button to click';
/** The page's background (#fdf6e3): a screenshot of it starts with this pixel, a blank page's does not. */
export const TEST_PAGE_BACKGROUND: [number, number, number] = [0xfd, 0xf6, 0xe3];

const HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Scripted test page</title></head>
<body style="margin:0;background:#fdf6e3;font-family:sans-serif">
<h1 style="margin:64px;font-size:64px;color:#073642">${TEST_PAGE_HEADING}</h1>
<button type="button" style="margin:0 64px;font-size:32px">${TEST_PAGE_BUTTON}</button>
</body>
</html>
`;

export interface TestPage {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** The paths asked for, in order (at most `MAX_RECORDED`). */
  visits: string[];
  close(): Promise<void>;
}

/** A browser asks for a favicon or two; a loop asking for ever is not kept. */
const MAX_RECORDED = 100;

export async function startTestPage(): Promise<TestPage> {
  const visits: string[] = [];
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (visits.length < MAX_RECORDED) visits.push(path);
    if (req.method !== 'GET' || path !== '/') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(HTML);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    visits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
