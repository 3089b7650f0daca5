import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * A one-day self-signed certificate for `commonName` made by openssl, written into `dir` as
 * key.pem and cert.pem (with `ipAddress` as its subject alternative name when given).
 */
export function writeSelfSignedCertificate(
  dir: string,
  commonName: string,
  ipAddress?: string,
): { keyFile: string; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${commonName}`,
      ...(ipAddress ? ['-addext', `subjectAltName=IP:${ipAddress}`] : []),
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { keyFile, certFile };
}
