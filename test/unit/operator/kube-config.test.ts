// The operator's kubeconfig loader: files as kubectl merges them, the pod's service account, token files and
// exec plugins (real child processes), and the errors a platform engineer gets for a broken kubeconfig.
import { mkdtemp, readFile, rm, writeFile, mkdir, chmod } from 'node:fs/promises';
import type { RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { stringify } from 'yaml';
import { ConfigError } from '../../../src/config.js';
import { ExecCredential } from '../../../src/operator/kube-config/exec-credential.js';
import { KubeCredentials, type KubeConfigView } from '../../../src/operator/kube-config/kube-credentials.js';
import { readKubeconfigFiles } from '../../../src/operator/kube-config/kubeconfig-file.js';
import { loadKubeConfig } from '../../../src/operator/kube-config/load-kube-config.js';

const PEM = (label: string): string => `-----BEGIN ${label}-----\nAAAA\n-----END ${label}-----\n`;
const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** The ConfigError `promise` rejects with; fails when it resolves or rejects with something else. */
async function configError(promise: Promise<unknown>, message: string): Promise<void> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).to.be.instanceOf(ConfigError);
  expect((err as Error).message).to.contain(message);
}

async function applied(config: KubeConfigView): Promise<RequestOptions & { headers: Record<string, string> }> {
  const opts: RequestOptions = {};
  await config.applyToHTTPSOptions(opts);
  return opts as RequestOptions & { headers: Record<string, string> };
}

describe('operator kubeconfig loader', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsync-kubeconfig-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const write = async (name: string, doc: unknown): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, typeof doc === 'string' ? doc : stringify(doc));
    return path;
  };

  const single = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}): unknown => ({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server: 'https://k8s.example:6443', ...cluster } }],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u', namespace: 'team' } }],
    'current-context': 'ctx',
  });

  it('merges KUBECONFIG files as kubectl does: the first name and current-context win, paths relative to their file', async () => {
    await mkdir(join(dir, 'b'));
    await writeFile(join(dir, 'b', 'ca.pem'), PEM('CERTIFICATE'));
    await writeFile(join(dir, 'b', 'token'), 'from-file\n');
    const a = await write('a.yaml', {
      users: [{ name: 'u', user: { tokenFile: 'token' } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
    });
    const b = await write('b/config', {
      clusters: [{ name: 'c', cluster: { server: 'https://b.example', 'certificate-authority': 'ca.pem' } }],
      users: [{ name: 'u', user: { token: 'shadowed' } }],
      contexts: [{ name: 'other', context: { cluster: 'c' } }],
      'current-context': 'ctx',
    });
    // a.yaml's user wins, and its relative tokenFile is read against a.yaml's directory: none there yet.
    expect(() => readKubeconfigFiles([a, b])).to.not.throw();
    await configError(
      loadKubeConfig({ kubeconfig: [a, join(dir, 'missing'), b].join(':') }),
      `${join(dir, 'token')} cannot be read (ENOENT)`,
    );
    await writeFile(join(dir, 'token'), 'winner\n');
    const config = await loadKubeConfig({ kubeconfig: [a, join(dir, 'missing'), b].join(':') });
    expect(config.getCurrentCluster()).to.deep.equal({ server: 'https://b.example' });
    expect(config.getCurrentContext()).to.equal('ctx');
    expect(config.getContextObject('ctx')).to.deep.equal({});
    const opts = await applied(config);
    expect(opts.headers['Authorization']).to.equal('Bearer winner');
    expect(opts.ca).to.equal(PEM('CERTIFICATE'));
  });

  it('applies inline certificate data, TLS settings, a token and basic auth as client-node does', async () => {
    const certs = single(
      { 'client-certificate-data': b64(PEM('CERTIFICATE')), 'client-key-data': b64(PEM('PRIVATE KEY')), token: 'abc' },
      {
        'certificate-authority-data': b64(PEM('CA')),
        'insecure-skip-tls-verify': true,
        'tls-server-name': 'api.internal',
      },
    );
    const config = await loadKubeConfig({ kubeconfig: await write('certs', certs) });
    expect(config.getContextObject('ctx')).to.deep.equal({ namespace: 'team' });
    expect(config.getContextObject('nope')).to.equal(null);
    const opts = await applied(config);
    expect(opts).to.deep.include({
      ca: PEM('CA'),
      cert: PEM('CERTIFICATE'),
      key: PEM('PRIVATE KEY'),
      rejectUnauthorized: false,
      servername: 'api.internal',
    });
    expect(opts.headers['Authorization']).to.equal('Bearer abc');

    const basic = await loadKubeConfig({
      kubeconfig: await write('basic', single({ username: 'ann', password: 's3cret' })),
    });
    expect((await applied(basic)).auth).to.equal('ann:s3cret');
  });

  it('re-reads a token file once a minute (rotated service-account tokens), keeping the last token through a failed read', async () => {
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, 'one\n');
    let now = 1_000_000;
    const context = readKubeconfigFiles([await write('tf', single({ tokenFile }))]);
    const config = new KubeCredentials(context, () => now);
    await writeFile(tokenFile, 'two\n');
    now += 59_000;
    expect((await applied(config)).headers['Authorization']).to.equal('Bearer one');
    now += 1_000;
    expect((await applied(config)).headers['Authorization']).to.equal('Bearer two');
    await rm(tokenFile);
    now += 60_000;
    expect((await applied(config)).headers['Authorization']).to.equal('Bearer two');
  });

  it("uses the pod's service account without a kubeconfig: the Service's address, the mounted CA, token and namespace", async () => {
    const sa = join(dir, 'sa');
    await mkdir(sa);
    await writeFile(join(sa, 'token'), 'pod-token');
    await writeFile(join(sa, 'ca.crt'), PEM('CERTIFICATE'));
    await writeFile(join(sa, 'namespace'), 'dsync-system');
    const config = await loadKubeConfig({
      serviceHost: 'fd00::1',
      servicePort: '443',
      serviceAccountDir: sa,
      home: dir,
    });
    expect(config.getCurrentCluster()).to.deep.equal({ server: 'https://[fd00::1]:443' });
    expect(config.getContextObject(config.getCurrentContext())).to.deep.equal({ namespace: 'dsync-system' });
    const opts = await applied(config);
    expect(opts.headers['Authorization']).to.equal('Bearer pod-token');
    expect(opts.ca).to.equal(PEM('CERTIFICATE'));

    await rm(join(sa, 'token'));
    await configError(
      loadKubeConfig({ serviceHost: '10.0.0.1', servicePort: '443', serviceAccountDir: sa, home: dir }),
      'without a service account token',
    );
  });

  it('prefers ~/.kube/config to the service account, and says what to set when there is neither', async () => {
    await mkdir(join(dir, '.kube'));
    await writeFile(join(dir, '.kube', 'config'), stringify(single({ token: 'home' })));
    const config = await loadKubeConfig({
      serviceHost: '10.0.0.1',
      servicePort: '443',
      serviceAccountDir: join(dir, 'none'),
      home: dir,
    });
    expect(config.getCurrentCluster()!.server).to.equal('https://k8s.example:6443');
    await configError(loadKubeConfig({ home: join(dir, 'empty') }), 'no cluster to connect to: set KUBECONFIG');
    await configError(loadKubeConfig({ kubeconfig: join(dir, 'nope') }), 'KUBECONFIG names no file that exists');
  });

  const broken: Array<[string, unknown, string]> = [
    ['not YAML', 'clusters: [unclosed', 'not YAML'],
    ['no current-context', { contexts: [] }, 'no current-context'],
    ['an unknown context', { 'current-context': 'x' }, 'current-context "x" is not among its contexts'],
    [
      'an unknown cluster',
      { contexts: [{ name: 'x', context: { cluster: 'gone' } }], 'current-context': 'x' },
      'names cluster "gone", which it does not define',
    ],
    ['a cluster without a server', { clusters: [{ name: 'c', cluster: {} }] }, 'clusters.0.cluster.server'],
    [
      'a certificate without its key',
      single({ 'client-certificate-data': b64(PEM('CERTIFICATE')) }),
      'a client certificate needs its key',
    ],
  ];
  for (const [what, doc, message] of broken) {
    it(`refuses a kubeconfig with ${what}, naming the file and the problem`, async () => {
      const path = await write('broken', doc);
      const err = (await loadKubeConfig({ kubeconfig: path }).catch((e: unknown) => e)) as Error;
      expect(err).to.be.instanceOf(ConfigError);
      expect(err.message).to.contain(message);
      if (!message.startsWith('a client')) expect(err.message).to.contain(path);
    });
  }

  it('hands a legacy auth-provider kubeconfig to @kubernetes/client-node', async () => {
    const config = await loadKubeConfig({
      kubeconfig: await write('oidc', single({ 'auth-provider': { name: 'oidc', config: { 'id-token': 'x' } } })),
    });
    const { KubeConfig } = await import('@kubernetes/client-node');
    expect(config).to.be.instanceOf(KubeConfig);
    expect(config.getCurrentContext()).to.equal('ctx');
  });

  describe('exec plugins', () => {
    /** A plugin that counts its runs and answers with `status`, echoing what it was given into the token. */
    async function plugin(
      status: Record<string, unknown>,
      exitCode = 0,
    ): Promise<{ command: string; runs: () => Promise<number> }> {
      const runs = join(dir, 'runs');
      const command = join(dir, 'plugin.mjs');
      await writeFile(
        command,
        `#!${process.execPath}
import { appendFileSync } from 'node:fs';
appendFileSync(${JSON.stringify(runs)}, 'x');
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO);
if (${exitCode}) { console.error('plugin: not logged in'); process.exit(${exitCode}); }
const status = ${JSON.stringify(status)};
if (status.token) status.token += ':' + process.argv[2] + ':' + process.env.PLUGIN_ENV + ':' + info.spec.interactive + ':' + (info.spec.cluster?.server ?? '-');
console.log(JSON.stringify({ apiVersion: info.apiVersion, kind: 'ExecCredential', status }));
`,
      );
      await chmod(command, 0o755);
      return { command, runs: async () => (await readFile(runs, 'utf8').catch(() => '')).length };
    }

    const execUser = (command: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command,
        args: ['arg1'],
        env: [{ name: 'PLUGIN_ENV', value: 'env1' }],
        ...extra,
      },
    });

    it('runs the plugin with its args, env and KUBERNETES_EXEC_INFO, and keeps its token until shortly before it expires', async () => {
      const expires = new Date(Date.now() + 3_600_000).toISOString();
      const { command, runs } = await plugin({ token: 'tok', expirationTimestamp: expires });
      const config = await loadKubeConfig({
        kubeconfig: await write('exec', single(execUser(command, { provideClusterInfo: true }))),
      });
      const [one, two] = await Promise.all([applied(config), applied(config)]);
      expect(one.headers['Authorization']).to.equal('Bearer tok:arg1:env1:false:https://k8s.example:6443');
      expect(two.headers['Authorization']).to.equal(one.headers['Authorization']);
      await applied(config);
      expect(await runs(), 'one run for three requests').to.equal(1);

      const credential = new ExecCredential(execUser(command)['exec'] as never, { server: 'https://k8s.example:6443' });
      await credential.get();
      await credential.get(Date.parse(expires) - 11_000);
      expect(await runs()).to.equal(2);
      await credential.get(Date.parse(expires) - 9_000);
      expect(await runs(), 'run again 10 s before the expiry').to.equal(3);
    });

    it('applies a client certificate from the plugin', async () => {
      const { command } = await plugin({
        clientCertificateData: PEM('CERTIFICATE'),
        clientKeyData: PEM('PRIVATE KEY'),
      });
      const opts = await applied(await loadKubeConfig({ kubeconfig: await write('exec', single(execUser(command))) }));
      expect(opts).to.deep.include({ cert: PEM('CERTIFICATE'), key: PEM('PRIVATE KEY') });
      expect(opts.headers['Authorization']).to.equal(undefined);
    });

    it("fails a request with the plugin's last stderr line, its install hint when it is missing, and refuses interactive plugins", async () => {
      const { command } = await plugin({}, 3);
      const failing = await loadKubeConfig({ kubeconfig: await write('exec', single(execUser(command))) });
      await configError(applied(failing), `kubeconfig exec plugin ${command} failed: plugin: not logged in`);
      const missing = await loadKubeConfig({
        kubeconfig: await write(
          'missing',
          single(execUser('dsync-no-such-plugin', { installHint: 'install it with brew' })),
        ),
      });
      await configError(applied(missing), '(install it with brew)');
      const empty = await plugin({});
      await configError(
        applied(await loadKubeConfig({ kubeconfig: await write('empty', single(execUser(empty.command))) })),
        'neither a token nor a client certificate and key',
      );
      await configError(
        loadKubeConfig({ kubeconfig: await write('tty', single(execUser(command, { interactiveMode: 'Always' }))) }),
        'interactiveMode Always',
      );
    });
  });
});
