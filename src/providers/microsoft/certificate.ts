/**
 * A certificate credential from one PEM file (DSYNC_MICROSOFT_CERTIFICATE_FILE): the private key and the
 * certificate uploaded to the app registration. Entra finds the certificate by its SHA-256 thumbprint, which
 * msal puts in the client assertion's header; the certificate itself goes along as x5c.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { MicrosoftCertificate } from './options.js';

const block = (pem: string, label: RegExp) =>
  new RegExp(`-----BEGIN ${label.source}-----[\\s\\S]+?-----END ${label.source}-----`).exec(pem)?.[0];

/** Throws an Error saying what is missing or wrong (the caller names the variable). */
export function parseCertificatePem(pem: string): MicrosoftCertificate {
  const key = block(pem, /(?:RSA |EC )?PRIVATE KEY/);
  const cert = block(pem, /CERTIFICATE/);
  if (!key) throw new Error('no unencrypted PRIVATE KEY block (PEM) in the file');
  if (!cert) throw new Error('no CERTIFICATE block (PEM) in the file');
  let x509: X509Certificate;
  try {
    createPrivateKey(key);
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new Error(`the key or certificate cannot be read: ${(err as Error).message}`);
  }
  // msal-node 3+ signs with PS256 when given the SHA-256 thumbprint (SHA-1 is deprecated by Entra).
  const privateKey = createPrivateKey(key).export({ format: 'pem', type: 'pkcs8' }).toString();
  return { privateKey, thumbprintSha256: x509.fingerprint256.replace(/:/g, '').toLowerCase(), x5c: cert };
}
