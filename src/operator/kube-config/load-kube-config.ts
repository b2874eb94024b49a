/**
 * Finds the cluster as kubectl and client-go do: the files of KUBECONFIG, else ~/.kube/config, else the pod's
 * service account. Read here rather than by @kubernetes/client-node because importing its KubeConfig loads
 * every generated API model, a large share of the operator's memory (docs/design/performance.md, "The operator at
 * scale"); client-node is still loaded, on demand, for
 * the kubeconfigs this module does not read (a legacy `auth-provider`, a `proxy-url`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ConfigError } from '../../config.js';
import { KubeCredentials, type KubeConfigView } from './kube-credentials.js';
import { readKubeconfigFiles, type KubeContext } from './kubeconfig-file.js';

export interface ClusterSource {
  /** KUBECONFIG: kubeconfig paths separated by the platform's path delimiter. */
  kubeconfig?: string | undefined;
  /** KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT, which Kubernetes sets in every pod. */
  serviceHost?: string | undefined;
  servicePort?: string | undefined;
  /** Where a pod's service account is mounted. */
  serviceAccountDir?: string;
  /** Where ~/.kube/config is looked for. */
  home?: string;
}

export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The kubeconfig files to read: KUBECONFIG's that exist (kubectl skips missing ones), else ~/.kube/config. */
function kubeconfigFiles(source: ClusterSource): string[] {
  if (source.kubeconfig) {
    const listed = source.kubeconfig.split(delimiter).filter(Boolean);
    const present = listed.filter((path) => existsSync(path));
    if (present.length === 0) throw new ConfigError(`KUBECONFIG names no file that exists (${listed.join(', ')})`);
    return present;
  }
  const home = join(source.home ?? homedir(), '.kube', 'config');
  return existsSync(home) ? [home] : [];
}

/** client-go's rest.InClusterConfig: the API server's Service, the mounted CA, token and namespace. */
function inClusterContext(host: string, port: string, dir: string): KubeContext {
  const tokenFile = join(dir, 'token');
  if (!existsSync(tokenFile)) {
    throw new ConfigError(
      `running in a pod without a service account token at ${tokenFile} (automountServiceAccountToken: false?); set KUBECONFIG instead`,
    );
  }
  const namespaceFile = join(dir, 'namespace');
  const namespace = existsSync(namespaceFile) ? readFileSync(namespaceFile, 'utf8').trim() : undefined;
  const caFile = join(dir, 'ca.crt');
  return {
    name: 'in-cluster',
    namespace: namespace || undefined,
    cluster: {
      server: `https://${host.includes(':') ? `[${host}]` : host}:${port}`,
      ...(existsSync(caFile) && { 'certificate-authority': caFile }),
    },
    user: { tokenFile },
  };
}

export async function loadKubeConfig(source: ClusterSource): Promise<KubeConfigView> {
  const files = kubeconfigFiles(source);
  if (files.length > 0) {
    const context = readKubeconfigFiles(files);
    if (context.user['auth-provider'] || context.cluster['proxy-url']) {
      const { KubeConfig } = await import('@kubernetes/client-node');
      const [first, ...rest] = files.map((file) => {
        const one = new KubeConfig();
        one.loadFromFile(file);
        return one;
      });
      for (const other of rest) first!.mergeConfig(other, true);
      first!.setCurrentContext(context.name);
      return first!;
    }
    return new KubeCredentials(context);
  }
  if (source.serviceHost && source.servicePort) {
    return new KubeCredentials(
      inClusterContext(source.serviceHost, source.servicePort, source.serviceAccountDir ?? SERVICE_ACCOUNT_DIR),
    );
  }
  throw new ConfigError(
    'no cluster to connect to: set KUBECONFIG, create ~/.kube/config, or run the operator in a pod (its service account)',
  );
}
