/**
 * Reads kubeconfig files as kubectl does: KUBECONFIG's list merged with the first occurrence of each name
 * winning (and the first current-context set), relative paths resolved against the file that holds them.
 * Only the fields the operator uses are kept; the rest of a kubeconfig is ignored, not refused.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../../config.js';

const clusterSchema = z.object({
  server: z.string().min(1),
  'certificate-authority-data': z.string().optional(),
  'certificate-authority': z.string().optional(),
  'insecure-skip-tls-verify': z.boolean().optional(),
  'tls-server-name': z.string().optional(),
  'proxy-url': z.string().optional(),
});

const execSchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).nullish(),
  env: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
  apiVersion: z.string().optional(),
  installHint: z.string().optional(),
  provideClusterInfo: z.boolean().optional(),
  interactiveMode: z.enum(['Never', 'IfAvailable', 'Always']).optional(),
});

const userSchema = z.object({
  token: z.string().optional(),
  tokenFile: z.string().optional(),
  'client-certificate-data': z.string().optional(),
  'client-certificate': z.string().optional(),
  'client-key-data': z.string().optional(),
  'client-key': z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  exec: execSchema.optional(),
  'auth-provider': z.object({ name: z.string() }).passthrough().optional(),
});

const contextSchema = z.object({
  cluster: z.string().min(1),
  user: z.string().optional(),
  namespace: z.string().optional(),
});

const fileSchema = z.object({
  clusters: z.array(z.object({ name: z.string().min(1), cluster: clusterSchema })).nullish(),
  users: z.array(z.object({ name: z.string().min(1), user: userSchema.nullish() })).nullish(),
  contexts: z.array(z.object({ name: z.string().min(1), context: contextSchema })).nullish(),
  'current-context': z.string().optional(),
});

export type ClusterEntry = z.infer<typeof clusterSchema>;
export type UserEntry = z.infer<typeof userSchema>;
export type ExecConfig = z.infer<typeof execSchema>;

/** An entry with the directory of the file it came from (its relative paths are relative to it). */
interface FromFile<T> {
  value: T;
  dir: string;
}

/** The selected context, resolved: what a client needs to reach and authenticate to one API server. */
export interface KubeContext {
  name: string;
  namespace: string | undefined;
  cluster: ClusterEntry;
  user: UserEntry;
}

/** Paths of the current context made absolute against the file that named them. */
function absolute(dir: string, path: string | undefined): string | undefined {
  return path === undefined || path === '' || isAbsolute(path) ? path : resolve(dir, path);
}

/** kubectl resolves an exec command against the kubeconfig only when it is a relative path, not a bare name. */
function execCommand(dir: string, command: string): string {
  return command.includes('/') && !isAbsolute(command) ? resolve(dir, command) : command;
}

function readOne(path: string): z.infer<typeof fileSchema> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`kubeconfig ${path}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  let doc: unknown;
  try {
    doc = parse(text) ?? {};
  } catch (err) {
    throw new ConfigError(`kubeconfig ${path}: not YAML (${(err as Error).message.split('\n')[0]})`);
  }
  const parsed = fileSchema.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `kubeconfig ${path}: ${issue?.path.join('.') || '(document)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/** Merges the files (the first occurrence of a name wins, as kubectl) and resolves the current context. */
export function readKubeconfigFiles(paths: string[]): KubeContext {
  const clusters = new Map<string, FromFile<ClusterEntry>>();
  const users = new Map<string, FromFile<UserEntry>>();
  const contexts = new Map<string, z.infer<typeof contextSchema>>();
  let current: string | undefined;
  for (const path of paths) {
    const file = readOne(path);
    const dir = dirname(resolve(path));
    for (const c of file.clusters ?? []) if (!clusters.has(c.name)) clusters.set(c.name, { value: c.cluster, dir });
    for (const u of file.users ?? []) if (!users.has(u.name)) users.set(u.name, { value: u.user ?? {}, dir });
    for (const c of file.contexts ?? []) if (!contexts.has(c.name)) contexts.set(c.name, c.context);
    current ??= file['current-context'] || undefined;
  }
  const where = paths.join(':');
  if (!current) throw new ConfigError(`kubeconfig ${where}: no current-context`);
  const context = contexts.get(current);
  if (!context) throw new ConfigError(`kubeconfig ${where}: current-context "${current}" is not among its contexts`);
  const cluster = clusters.get(context.cluster);
  if (!cluster)
    throw new ConfigError(
      `kubeconfig ${where}: context "${current}" names cluster "${context.cluster}", which it does not define`,
    );
  const user = context.user ? users.get(context.user) : undefined;
  if (context.user && !user)
    throw new ConfigError(
      `kubeconfig ${where}: context "${current}" names user "${context.user}", which it does not define`,
    );
  const c = cluster.value;
  const u = user?.value ?? {};
  const udir = user?.dir ?? cluster.dir;
  return {
    name: current,
    namespace: context.namespace || undefined,
    cluster: { ...c, 'certificate-authority': absolute(cluster.dir, c['certificate-authority']) },
    user: {
      ...u,
      tokenFile: absolute(udir, u.tokenFile),
      'client-certificate': absolute(udir, u['client-certificate']),
      'client-key': absolute(udir, u['client-key']),
      ...(u.exec && { exec: { ...u.exec, command: execCommand(udir, u.exec.command) } }),
    },
  };
}
