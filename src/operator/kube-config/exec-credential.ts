/**
 * A kubeconfig `exec` credential plugin (client.authentication.k8s.io, as kubectl runs aws, gke-gcloud-auth-plugin
 * or kubelogin): run without a shell, its ExecCredential kept until 10 s before its expirationTimestamp (without
 * one, for the process's life, as client-go), one run at a time however many requests wait for it.
 */
import { execFile } from 'node:child_process';
import { z } from 'zod';
import { ConfigError } from '../../config.js';
import type { ClusterEntry, ExecConfig } from './kubeconfig-file.js';

const credentialSchema = z.object({
  status: z.object({
    token: z.string().optional(),
    clientCertificateData: z.string().optional(),
    clientKeyData: z.string().optional(),
    expirationTimestamp: z.string().optional(),
  }),
});

export type ExecCredentialStatus = z.infer<typeof credentialSchema>['status'];

const EARLY_MS = 10_000;
const PLUGIN_TIMEOUT_MS = 60_000;

export class ExecCredential {
  private cached: { status: ExecCredentialStatus; until: number } | undefined;
  private running: Promise<ExecCredentialStatus> | undefined;

  constructor(
    private readonly exec: ExecConfig,
    private readonly cluster: ClusterEntry,
  ) {
    if (exec.interactiveMode === 'Always') {
      throw new ConfigError(
        `kubeconfig exec plugin ${exec.command}: interactiveMode Always needs a terminal, which the operator has none of`,
      );
    }
  }

  get(now = Date.now()): Promise<ExecCredentialStatus> {
    if (this.cached && now < this.cached.until) return Promise.resolve(this.cached.status);
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<ExecCredentialStatus> {
    const apiVersion = this.exec.apiVersion ?? 'client.authentication.k8s.io/v1';
    const info = {
      apiVersion,
      kind: 'ExecCredential',
      spec: { interactive: false, ...(this.exec.provideClusterInfo && { cluster: clusterInfo(this.cluster) }) },
    };
    // The plugin gets the operator's environment, as kubectl's would, plus the kubeconfig's variables.
    const env = {
      ...process.env,
      ...Object.fromEntries((this.exec.env ?? []).map((e) => [e.name, e.value])),
      KUBERNETES_EXEC_INFO: JSON.stringify(info),
    };
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        this.exec.command,
        this.exec.args ?? [],
        { env, timeout: PLUGIN_TIMEOUT_MS, maxBuffer: 1 << 20 },
        (err, out, errOut) => {
          if (!err) return resolve(out);
          const hint =
            (err as NodeJS.ErrnoException).code === 'ENOENT' && this.exec.installHint
              ? ` (${this.exec.installHint.trim()})`
              : '';
          const detail = String(errOut).trim().split('\n').at(-1) || err.message;
          reject(new ConfigError(`kubeconfig exec plugin ${this.exec.command} failed: ${detail}${hint}`));
        },
      );
    });
    let parsed: z.infer<typeof credentialSchema>;
    try {
      parsed = credentialSchema.parse(JSON.parse(stdout));
    } catch {
      throw new ConfigError(
        `kubeconfig exec plugin ${this.exec.command}: its output is not an ExecCredential with a status`,
      );
    }
    const { status } = parsed;
    if (!status.token && !(status.clientCertificateData && status.clientKeyData)) {
      throw new ConfigError(
        `kubeconfig exec plugin ${this.exec.command}: the ExecCredential has neither a token nor a client certificate and key`,
      );
    }
    const expires = status.expirationTimestamp ? Date.parse(status.expirationTimestamp) : Infinity;
    this.cached = { status, until: Number.isNaN(expires) ? 0 : expires - EARLY_MS };
    return status;
  }
}

/** ExecCredential.spec.cluster, for plugins that ask for it (provideClusterInfo). */
function clusterInfo(c: ClusterEntry): Record<string, unknown> {
  return {
    server: c.server,
    ...(c['certificate-authority-data'] && { 'certificate-authority-data': c['certificate-authority-data'] }),
    ...(c['insecure-skip-tls-verify'] && { 'insecure-skip-tls-verify': true }),
    ...(c['tls-server-name'] && { 'tls-server-name': c['tls-server-name'] }),
  };
}
