/** A self-signed certificate for `localhost` (Debian's openssl), for the tests' TLS listeners. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Writes key.pem and cert.pem into `dir` and returns their paths. */
export function selfSignedCertificate(dir: string): { key: string; cert: string } {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
    ].concat(['-subj', '/CN=localhost', '-keyout', key, '-out', cert]),
    { stdio: 'ignore' },
  );
  return { key, cert };
}
