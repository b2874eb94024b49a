import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ConfigError, loadConfig, loadOperatorConfig } from '../../../src/config.js';
import { parseNode, parseNodeList } from '../../../src/store/redis/target.js';

const key = () => 'generated';
/** Config only checks that the CA file exists (the client reads it): this file stands for one. */
const CA_FILE = fileURLToPath(import.meta.url);
const KEYS = { DSYNC_API_KEYS: 'k' };

describe('Redis store config (REDIS_URL, REDIS_CLUSTER_NODES, REDIS_SENTINELS)', () => {
  it('parses host:port, IPv6 and redis[s]:// entries with their credentials', () => {
    expect(parseNode('redis-0.redis:6379')).to.deep.equal({ host: 'redis-0.redis', port: 6379 });
    expect(parseNode(' [::1]:7000 ')).to.deep.equal({ host: '::1', port: 7000 });
    expect(parseNode('rediss://dsync:p%40ss@10.0.0.1:6380')).to.deep.equal({
      host: '10.0.0.1',
      port: 6380,
      username: 'dsync',
      password: 'p@ss',
      tls: true,
    });
    expect(parseNodeList('a:1, b:2,')).to.have.length(2);
    for (const bad of ['redis-0', 'a:0', 'a:70000', 'a:b', 'redis://host', ''])
      expect(() => parseNodeList(bad), bad).to.throw();
  });

  it('builds a cluster target with the data nodes ACL user and TLS, and WAIT 1 by default', () => {
    const c = loadConfig(
      {
        ...KEYS,
        REDIS_CLUSTER_NODES: 'n1:7000,n2:7001',
        REDIS_USERNAME: 'dsync',
        REDIS_PASSWORD: 'pw',
        REDIS_TLS: 'true',
      },
      key,
    );
    expect(c.redis).to.deep.equal({
      kind: 'cluster',
      nodes: ['n1:7000', 'n2:7001'],
      username: 'dsync',
      password: 'pw',
      tls: true,
    });
    expect(c.redisWait).to.deep.equal({ replicas: 1, minReplicas: 0, timeoutMs: 1000 });
    expect(c.webhook.allowPrivate).to.equal(false);
  });

  it('builds a sentinel target with the Sentinels own auth and TLS', () => {
    const c = loadOperatorConfig({
      REDIS_SENTINELS: 's1:26379,s2:26379,s3:26379',
      REDIS_SENTINEL_NAME: 'dsync',
      REDIS_SENTINEL_USERNAME: 'sentinel',
      REDIS_SENTINEL_PASSWORD: 'spw',
      REDIS_SENTINEL_TLS: '1',
      DSYNC_REDIS_WAIT_TIMEOUT: '2s',
    });
    expect(c.redis).to.deep.equal({
      kind: 'sentinel',
      sentinels: ['s1:26379', 's2:26379', 's3:26379'],
      name: 'dsync',
      sentinelUsername: 'sentinel',
      sentinelPassword: 'spw',
      sentinelTls: true,
    });
    expect(c.redisWait).to.deep.equal({ replicas: 1, minReplicas: 0, timeoutMs: 2000 });
  });

  it('takes a CA file for a rediss:// URL', () => {
    const c = loadConfig({ ...KEYS, REDIS_URL: 'rediss://x:6380', REDIS_TLS_CA_FILE: CA_FILE }, key);
    expect(c.redis).to.deep.equal({ kind: 'server', url: 'rediss://x:6380', caFile: CA_FILE });
  });

  it('keeps WAIT off for one server unless asked, and reads the timeout in ms or as a duration', () => {
    expect(loadConfig({ ...KEYS, REDIS_URL: 'redis://x:6379' }, key).redisWait).to.deep.equal({
      replicas: 0,
      minReplicas: 0,
      timeoutMs: 1000,
    });
    const c = loadConfig(
      { ...KEYS, REDIS_URL: 'redis://x:6379', DSYNC_REDIS_WAIT_REPLICAS: '2', DSYNC_REDIS_WAIT_TIMEOUT: '250' },
      key,
    );
    expect(c.redisWait).to.deep.equal({ replicas: 2, minReplicas: 0, timeoutMs: 250 });
    expect(
      loadConfig({ ...KEYS, REDIS_CLUSTER_NODES: 'n:1', DSYNC_REDIS_WAIT_REPLICAS: '0' }, key).redisWait.replicas,
    ).to.equal(0);
  });

  it('reads DSYNC_REDIS_MIN_REPLICAS (default 0) and refuses a minimum above the replicas waited for', () => {
    expect(
      loadConfig({ ...KEYS, REDIS_CLUSTER_NODES: 'n:1', DSYNC_REDIS_MIN_REPLICAS: '1' }, key).redisWait,
    ).to.deep.equal({ replicas: 1, minReplicas: 1, timeoutMs: 1000 });
    expect(() => loadConfig({ ...KEYS, REDIS_CLUSTER_NODES: 'n:1', DSYNC_REDIS_MIN_REPLICAS: '2' }, key)).to.throw(
      /DSYNC_REDIS_MIN_REPLICAS \(2\) must not exceed DSYNC_REDIS_WAIT_REPLICAS \(1\)/,
    );
    expect(() => loadConfig({ ...KEYS, REDIS_URL: 'redis://x:6379', DSYNC_REDIS_MIN_REPLICAS: '-1' }, key)).to.throw(
      /DSYNC_REDIS_MIN_REPLICAS must be >= 0/,
    );
  });

  it('refuses more than one store, half a Sentinel setup, bad nodes and stray settings, naming the variables', () => {
    const refused: Array<[Record<string, string>, RegExp]> = [
      [
        { REDIS_URL: 'redis://x:6379', REDIS_CLUSTER_NODES: 'n:1' },
        /one of REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS, not REDIS_URL and REDIS_CLUSTER_NODES/,
      ],
      [
        { REDIS_CLUSTER_NODES: 'n:1', REDIS_SENTINELS: 's:1', REDIS_SENTINEL_NAME: 'm' },
        /not REDIS_CLUSTER_NODES and REDIS_SENTINELS/,
      ],
      [{ REDIS_SENTINELS: 's:26379' }, /REDIS_SENTINELS and REDIS_SENTINEL_NAME/],
      [{ REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS and REDIS_SENTINEL_NAME/],
      [{ REDIS_CLUSTER_NODES: 'n1:7000,n2' }, /REDIS_CLUSTER_NODES: "n2" is not host:port/],
      [{ REDIS_SENTINELS: 's:99999', REDIS_SENTINEL_NAME: 'm' }, /REDIS_SENTINELS: "s:99999"/],
      [
        { REDIS_URL: 'redis://x:6379', REDIS_PASSWORD: 'pw' },
        /REDIS_PASSWORD: with REDIS_URL, put the user, password and TLS in the URL/,
      ],
      [{ REDIS_CLUSTER_NODES: 'n:1', REDIS_SENTINEL_PASSWORD: 'pw' }, /REDIS_SENTINEL_PASSWORD need REDIS_SENTINELS/],
      [
        { REDIS_USERNAME: 'u' },
        /REDIS_USERNAME need a Redis store \(REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS\)/,
      ],
      [{ DSYNC_REDIS_WAIT_REPLICAS: '1' }, /DSYNC_REDIS_WAIT_REPLICAS needs a Redis store/],
      [{ REDIS_CLUSTER_NODES: 'n:1', DSYNC_REDIS_WAIT_REPLICAS: '-1' }, /DSYNC_REDIS_WAIT_REPLICAS must be >= 0/],
      [{ REDIS_CLUSTER_NODES: 'n:1', DSYNC_REDIS_WAIT_TIMEOUT: 'soon' }, /DSYNC_REDIS_WAIT_TIMEOUT/],
      [{ REDIS_CLUSTER_NODES: 'n:1', REDIS_TLS: 'yes' }, /REDIS_TLS/],
      [{ REDIS_CLUSTER_NODES: 'n:1', REDIS_TLS_CA_FILE: '/nonexistent/ca.pem' }, /REDIS_TLS_CA_FILE: no such file/],
      [
        { REDIS_URL: 'redis://x:6379', REDIS_TLS_CA_FILE: CA_FILE },
        /REDIS_TLS_CA_FILE is for TLS: with REDIS_URL, use a rediss:\/\/ URL/,
      ],
    ];
    for (const [env, message] of refused) {
      expect(() => loadConfig({ ...KEYS, ...env }, key), JSON.stringify(env)).to.throw(ConfigError, message);
    }
  });

  it('asks for API keys with any Redis store, naming all three variables', () => {
    expect(() => loadConfig({ REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'm' }, key)).to.throw(
      ConfigError,
      /DSYNC_API_KEYS must be set with a Redis store \(REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS\)/,
    );
  });
});
