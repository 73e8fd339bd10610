/**
 * Which certificate a server showed and why it was refused, for the log: the failed call knows only the
 * TLS error's code, and Node's error carries no certificate (the socket is gone by then; only a wrong
 * host name's error holds it). So a second handshake reads the certificate: it accepts anything, sends
 * nothing over the connection and closes it at once. Everything in a certificate is the server's text,
 * hostile like the rest: each field is cleaned and clipped.
 */
import { isIP } from 'node:net';
import { connect, type PeerCertificate } from 'node:tls';
import { showable } from './serverText';
import type { TlsOptions } from './tls';

/** What the log says of a certificate; Node's `PeerCertificate` has these and more. */
export type CertificateFields = Pick<
  PeerCertificate,
  'subject' | 'issuer' | 'valid_from' | 'valid_to' | 'fingerprint256'
> & { subjectaltname?: string };

/** Node's words for the codes it puts on a refused certificate, when its error did not come with them. */
const CODE_MEANINGS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in certificate chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unable to verify the first certificate',
  UNABLE_TO_GET_ISSUER_CERT: 'unable to get issuer certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unable to get local issuer certificate',
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  CERT_UNTRUSTED: 'certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's address is not among the certificate's names",
};

/** Fields of a name (subject, issuer) shown, and characters per value: a certificate may hold any text. */
const MAX_NAME_FIELDS = 6;
const MAX_FIELD_CHARS = 120;
const MAX_ALT_NAMES_CHARS = 300;
/** How long the handshake that reads the certificate may take. */
export const CERTIFICATE_READ_TIMEOUT_MS = 3000;

/**
 * One line for the log: the TLS code and why, then the certificate (subject, issuer, validity, SHA-256
 * fingerprint, the names it is for), or that it could not be read.
 */
export function describeCertificateFailure(
  code: string,
  reason: string | undefined,
  certificate: CertificateFields | undefined,
): string {
  const why = showable(reason || CODE_MEANINGS[code] || '', MAX_FIELD_CHARS);
  const failure = why ? `${code} (${why})` : code;
  if (!certificate) return `${failure}; the certificate could not be read again to say which one`;
  const parts = [
    `subject ${nameText(certificate.subject)}`,
    `issuer ${nameText(certificate.issuer)}`,
    `valid ${showable(certificate.valid_from ?? '?', 40)} to ${showable(certificate.valid_to ?? '?', 40)}`,
    `SHA-256 ${showable(certificate.fingerprint256 ?? '?', 100)}`,
  ];
  if (certificate.subjectaltname)
    parts.push(`names ${showable(certificate.subjectaltname, MAX_ALT_NAMES_CHARS)}`);
  return `${failure}; ${parts.join('; ')}`;
}

function nameText(name: PeerCertificate['subject'] | undefined): string {
  // Node gives a name as an object; a field given twice holds an array
  const fields = Object.entries((name ?? {}) as unknown as Record<string, unknown>)
    .filter(([, value]) => typeof value === 'string' || Array.isArray(value))
    .slice(0, MAX_NAME_FIELDS)
    .map(([key, value]) => {
      const values = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'string');
      return `${showable(key, 20)}=${showable(values.join(' + '), MAX_FIELD_CHARS)}`;
    });
  return fields.length ? fields.join(', ') : '(none)';
}

/**
 * The certificate the server at `serverUrl` shows, read with a handshake that verifies nothing; undefined
 * when it cannot be read within `timeoutMs` (or the signal aborts): the log then says the code alone.
 */
export function readServerCertificate(
  serverUrl: string,
  tls: TlsOptions | undefined,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<PeerCertificate | undefined> {
  let url: URL;
  try {
    url = new URL(serverUrl);
  } catch {
    return Promise.resolve(undefined);
  }
  if (url.protocol !== 'https:' || options.signal?.aborted) return Promise.resolve(undefined);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return new Promise((resolve) => {
    const socket = connect({
      host,
      port: Number(url.port || 443),
      // a name is sent as SNI, as the real request does; an address is not (TLS allows names only)
      ...(isIP(host) ? {} : { servername: host }),
      ...(tls?.ca ? { ca: tls.ca } : {}),
      rejectUnauthorized: false,
    });
    const finish = (certificate: PeerCertificate | undefined) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
      socket.destroy();
      resolve(certificate);
    };
    const abort = () => finish(undefined);
    const timer = setTimeout(abort, options.timeoutMs ?? CERTIFICATE_READ_TIMEOUT_MS);
    options.signal?.addEventListener('abort', abort, { once: true });
    socket.once('secureConnect', () => {
      const certificate = socket.getPeerCertificate(false);
      // an empty object: the server sent none
      finish(certificate && Object.keys(certificate).length ? certificate : undefined);
    });
    socket.once('error', abort);
    socket.once('close', abort);
  });
}
