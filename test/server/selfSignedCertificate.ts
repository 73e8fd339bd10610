// Throwaway certificates made with the openssl CLI (Node can make keys but not X.509 certificates):
// a self-signed one, and a CA that issues server certificates. For HTTPS tests only; nothing is written
// outside a temp dir.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SelfSignedCertificate {
  key: string;
  /** PEM; also what a client passes as its trusted CA. */
  cert: string;
}

export interface CertificateAuthority {
  /** The CA's own certificate (PEM): what a client trusts as its CA file. */
  cert: string;
  /**
   * A server certificate for `hosts` signed by this CA; `expired` makes one whose validity ended a
   * day ago (`-days -1`).
   */
  issue(
    hosts: readonly string[],
    options?: { expired?: boolean; commonName?: string },
  ): SelfSignedCertificate;
}

const DEFAULT_HOSTS = ['127.0.0.1', 'localhost'];

/** A self-signed certificate for `hosts` (addresses and names; 127.0.0.1 and localhost by default). */
export function selfSignedCertificate(hosts: readonly string[] = DEFAULT_HOSTS): SelfSignedCertificate {
  return inTempDir((dir) => {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    // prettier-ignore
    openssl([
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=OpenHands test server',
      '-addext', subjectAltName(hosts),
    ]);
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  });
}

/** A CA of its own (kept in memory), as a company's would be. */
export function certificateAuthority(commonName = 'OpenHands test CA'): CertificateAuthority {
  const ca = inTempDir((dir) => {
    const keyFile = path.join(dir, 'ca-key.pem');
    const certFile = path.join(dir, 'ca.pem');
    // prettier-ignore
    openssl([
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', `/CN=${commonName}`,
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign',
    ]);
    return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
  });
  let serial = 1;
  return {
    cert: ca.cert,
    issue: (hosts, options = {}) =>
      inTempDir((dir) => {
        const files = {
          caKey: path.join(dir, 'ca-key.pem'),
          caCert: path.join(dir, 'ca.pem'),
          key: path.join(dir, 'key.pem'),
          request: path.join(dir, 'request.csr'),
          extensions: path.join(dir, 'extensions.cnf'),
          cert: path.join(dir, 'cert.pem'),
        };
        writeFileSync(files.caKey, ca.key);
        writeFileSync(files.caCert, ca.cert);
        writeFileSync(files.extensions, `${subjectAltName(hosts)}\n`);
        // prettier-ignore
        openssl([
          'req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
          '-keyout', files.key, '-out', files.request, '-subj', `/CN=${options.commonName ?? 'OpenHands server'}`,
        ]);
        // prettier-ignore
        openssl([
          'x509', '-req', '-in', files.request, '-CA', files.caCert, '-CAkey', files.caKey,
          '-set_serial', String(serial++), '-days', options.expired ? '-1' : '2',
          '-extfile', files.extensions, '-out', files.cert,
        ]);
        return { key: readFileSync(files.key, 'utf8'), cert: readFileSync(files.cert, 'utf8') };
      }),
  };
}

function subjectAltName(hosts: readonly string[]): string {
  return `subjectAltName=${hosts.map((host) => (isIP(host) ? `IP:${host}` : `DNS:${host}`)).join(',')}`;
}

function openssl(args: string[]): void {
  execFileSync('openssl', args, { stdio: 'pipe' });
}

function inTempDir<T>(work: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'openhands-cert-'));
  try {
    return work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
