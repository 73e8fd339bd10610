import { defaultServerName, OPENHANDS_CLOUD_URL, sameServerUrl } from '../core/servers';

/**
 * The server as the views' headers name it, short enough to read beside the title and its actions
 * at the sidebar's usual width (300 px): the name the user gave it, without the "OpenHands" the
 * container already says; an unnamed one by its host, a loopback one as `local:port`.
 */
export function serverLabel(name: string, url: string): string {
  if (sameServerUrl(url, OPENHANDS_CLOUD_URL) && name === defaultServerName(url)) return 'Cloud';
  if (name !== defaultServerName(url)) return name.replace(/^OpenHands\s+(?=\S)/i, '');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return name;
  }
  const host = isLoopback(parsed.hostname) ? 'local' : parsed.hostname.replace(/^www\./i, '');
  return parsed.port ? `${host}:${parsed.port}` : host;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
