// A throwaway self-signed certificate for 127.0.0.1/localhost, made with the openssl CLI (Node can
// make keys but not X.509 certificates). For HTTPS tests only; nothing is written outside a temp dir.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SelfSignedCertificate {
  key: string;
  /** PEM; also what a client passes as its trusted CA. */
  cert: string;
}

export function selfSignedCertificate(): SelfSignedCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), 'openhands-cert-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    // prettier-ignore
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=OpenHands test server',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ], { stdio: 'pipe' });
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
