/**
 * A server's TLS options, and what axios sends each request with: Node's own `http.request` /
 * `https.request`, with the server's TLS options on every https request itself, not only on its agent.
 *
 * Why: inside VS Code, `http.proxySupport` ("override" by default) runs every request of a host other than
 * localhost/127.0.0.1 through `@vscode/proxy-agent`, which drops the request's agent for its own and then
 * connects with Node's global agent (or a proxy's), passing on the request's own options. Of our agent's
 * options it carries over `ca` alone, so "accept any certificate" set on the agent was lost for a server on
 * a real host address. Options on the request reach `tls.connect` whichever agent ends up connecting.
 */
import * as http from 'node:http';
import * as https from 'node:https';

/** For `https://` servers only. Unset, Node's (and VS Code's) defaults and proxy handling apply. */
export interface TlsOptions {
  /** PEM certificate(s) to trust in addition to the system's, e.g. a company or self-signed CA. */
  ca?: string;
  /** `false` accepts any certificate: self-signed, expired or for another host. */
  rejectUnauthorized?: boolean;
}

type ResponseListener = (response: http.IncomingMessage) => void;

/** axios's `transport`: `request` is what it calls, with the options it built and its reply listener. */
export interface RequestTransport {
  request(options: https.RequestOptions, onResponse: ResponseListener): http.ClientRequest;
}

export function tlsRequestTransport(tls: TlsOptions): RequestTransport {
  return {
    request(options, onResponse) {
      // looked up at each call, never kept: VS Code's proxy support replaces these functions on the modules
      if (options.protocol === 'https:') return https.request({ ...options, ...tls }, onResponse);
      return http.request(options, onResponse);
    },
  };
}
