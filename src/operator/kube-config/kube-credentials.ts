/**
 * The credentials of one kubeconfig context (or of the pod's service account), applied to each request the way
 * @kubernetes/client-node's KubeConfig applies them, so the operator's client takes either (`KubeConfigView`).
 */
import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { ConfigError } from '../../config.js';
import { ExecCredential } from './exec-credential.js';
import type { KubeContext } from './kubeconfig-file.js';

/**
 * What the operator uses of a kubeconfig: the subset of client-node's KubeConfig it calls, so a client-node
 * KubeConfig (the fallback for kubeconfigs this module does not read, and the tests' admin configs) fits too.
 */
export interface KubeConfigView {
  getCurrentCluster(): { server: string; proxyUrl?: string | undefined } | null;
  getCurrentContext(): string;
  getContextObject(name: string): { namespace?: string | undefined } | null;
  /** Sets TLS material and auth headers on the options; called per request, so rotating credentials refresh. */
  applyToHTTPSOptions(opts: RequestOptions): Promise<void>;
}

/** client-go re-reads a token file once a minute: projected service-account tokens rotate on disk. */
const TOKEN_FILE_TTL_MS = 60_000;

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `kubeconfig: ${what} ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
    );
  }
}

/** `-data` fields are base64 PEM; the plain ones are paths to PEM files. */
function pem(data: string | undefined, file: string | undefined, what: string): string | undefined {
  if (data) return Buffer.from(data, 'base64').toString('utf8');
  return file ? readText(file, what) : undefined;
}

export class KubeCredentials implements KubeConfigView {
  private readonly tls: Pick<RequestOptions, 'ca' | 'cert' | 'key' | 'rejectUnauthorized' | 'servername'>;
  private readonly exec: ExecCredential | undefined;
  private token: { value: string; readAt: number } | undefined;

  constructor(
    private readonly context: KubeContext,
    private readonly now: () => number = Date.now,
  ) {
    const { cluster, user } = context;
    const ca = pem(cluster['certificate-authority-data'], cluster['certificate-authority'], 'certificate-authority');
    const cert = pem(user['client-certificate-data'], user['client-certificate'], 'client-certificate');
    const key = pem(user['client-key-data'], user['client-key'], 'client-key');
    if (Boolean(cert) !== Boolean(key))
      throw new ConfigError(
        `kubeconfig context "${context.name}": a client certificate needs its key, and a key its certificate`,
      );
    this.tls = {
      ...(ca && { ca }),
      ...(cert && key && { cert, key }),
      ...(cluster['insecure-skip-tls-verify'] && { rejectUnauthorized: false }),
      ...(cluster['tls-server-name'] && { servername: cluster['tls-server-name'] }),
    };
    this.exec = user.exec && new ExecCredential(user.exec, cluster);
    if (user.tokenFile) this.readToken(user.tokenFile); // a missing file fails at start, not at the first request
  }

  getCurrentCluster(): { server: string } {
    return { server: this.context.cluster.server };
  }

  getCurrentContext(): string {
    return this.context.name;
  }

  getContextObject(name: string): { namespace?: string } | null {
    if (name !== this.context.name) return null;
    return this.context.namespace === undefined ? {} : { namespace: this.context.namespace };
  }

  async applyToHTTPSOptions(opts: RequestOptions): Promise<void> {
    Object.assign(opts, this.tls);
    const { user } = this.context;
    const headers = (opts.headers ??= {}) as Record<string, string>;
    if (this.exec) {
      const status = await this.exec.get();
      if (status.clientCertificateData && status.clientKeyData)
        Object.assign(opts, { cert: status.clientCertificateData, key: status.clientKeyData });
      if (status.token) headers['Authorization'] = `Bearer ${status.token}`;
    } else if (user.tokenFile) {
      headers['Authorization'] = `Bearer ${this.readToken(user.tokenFile)}`;
    } else if (user.token) {
      headers['Authorization'] = `Bearer ${user.token}`;
    } else if (user.username !== undefined && user.password !== undefined) {
      opts.auth = `${user.username}:${user.password}`;
    }
  }

  private readToken(path: string): string {
    const now = this.now();
    if (this.token && now - this.token.readAt < TOKEN_FILE_TTL_MS) return this.token.value;
    try {
      this.token = { value: readText(path, 'tokenFile').trim(), readAt: now };
    } catch (err) {
      if (!this.token) throw err; // a file being rotated: the token read last is still good for a while
    }
    return this.token.value;
  }
}
