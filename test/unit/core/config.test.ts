import { expect } from 'chai';
import { ConfigError, DEFAULT_RETRY_SCHEDULE, loadConfig, loadOperatorConfig } from '../../../src/config.js';
import { parseDuration } from '../../../src/config-values.js';

const key = () => 'generated';

describe('config', () => {
  it('parses durations', () => {
    expect(parseDuration('250ms')).to.equal(250);
    expect(parseDuration('5s')).to.equal(5000);
    expect(parseDuration('2h')).to.equal(7_200_000);
    expect(() => parseDuration('5 minutes')).to.throw(/invalid duration/);
  });

  it('defaults to the memory store on :5225 with a generated key and private webhooks allowed', () => {
    const c = loadConfig({}, key);
    expect(c).to.include({
      port: 5225,
      externalUrl: 'http://localhost:5225',
      apiKeyGenerated: true,
      metricsPort: 9464,
    });
    expect(c.apiKeys).to.deep.equal([{ key: 'generated', scope: { readOnly: false } }]);
    expect(c.webhook.allowPrivate).to.equal(true);
    expect(c.webhook.retrySchedule).to.deep.equal(DEFAULT_RETRY_SCHEDULE);
    expect(DEFAULT_RETRY_SCHEDULE.reduce((a, b) => a + b, 0) / 86_400_000).to.be.within(2.5, 3.5);
  });

  it('requires API keys with Redis and refuses private webhooks there by default', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://x:6379' }, key)).to.throw(ConfigError, /DSYNC_API_KEYS/);
    const c = loadConfig({ REDIS_URL: 'redis://x:6379', DSYNC_API_KEYS: 'a, b' }, key);
    expect(c.apiKeys.map((k) => k.key)).to.deep.equal(['a', 'b']);
    expect(c.webhook.allowPrivate).to.equal(false);
  });

  it('needs no API keys with Redis for a process that serves no API (the cron jobs)', () => {
    const c = loadConfig({ REDIS_URL: 'redis://x:6379' }, key, { servesApi: false });
    expect(c.redis).to.deep.equal({ kind: 'server', url: 'redis://x:6379' });
  });

  it('names the variable in errors', () => {
    expect(() => loadConfig({ PORT: 'eighty' }, key)).to.throw(ConfigError, /PORT/);
    expect(() => loadConfig({ DSYNC_WEBHOOK_BATCH_SIZE: '0' }, key)).to.throw(ConfigError, /DSYNC_WEBHOOK_BATCH_SIZE/);
    expect(() => loadConfig({ DSYNC_WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, key)).to.throw(
      ConfigError,
      /DSYNC_WEBHOOK_RETRY_SCHEDULE/,
    );
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379' }, key)).to.throw(ConfigError, /REDIS_URL/);
  });

  it('accepts a retention of 0 (delivered events trimmed at once), as the benchmarks use it', () => {
    expect(loadConfig({ DSYNC_EVENT_RETENTION: '0s', DSYNC_WEBHOOK_LOG_RETENTION: '0s' }, key)).to.include({
      eventRetentionMs: 0,
      webhookLogRetentionMs: 0,
    });
  });

  it('reads batch mode, schedule and retention', () => {
    const c = loadConfig(
      {
        DSYNC_WEBHOOK_BATCH_SIZE: '50',
        DSYNC_WEBHOOK_BATCH_CRON_INTERVAL: '10',
        DSYNC_WEBHOOK_RETRY_SCHEDULE: '1s,1m',
        DSYNC_EVENT_RETENTION: '1d',
      },
      key,
    );
    expect(c.webhook).to.include({ batchSize: 50, batchIntervalSeconds: 10 });
    expect(c.webhook.retrySchedule).to.deep.equal([1000, 60_000]);
    expect(c.eventRetentionMs).to.equal(86_400_000);
  });

  it('reads the delivery ordering and POSTs in flight per directory (defaults: resource, 64), and names them when bad', () => {
    expect(loadConfig({}, key)).to.include({ webhookOrdering: 'resource', webhookConcurrency: 64 });
    expect(loadConfig({ DSYNC_WEBHOOK_ORDERING: 'directory', DSYNC_WEBHOOK_CONCURRENCY: '64' }, key)).to.include({
      webhookOrdering: 'directory',
      webhookConcurrency: 64,
    });
    expect(() => loadConfig({ DSYNC_WEBHOOK_ORDERING: 'user' }, key)).to.throw(
      ConfigError,
      /DSYNC_WEBHOOK_ORDERING must be resource or directory/,
    );
    expect(() => loadConfig({ DSYNC_WEBHOOK_CONCURRENCY: '0' }, key)).to.throw(
      ConfigError,
      /DSYNC_WEBHOOK_CONCURRENCY/,
    );
    expect(() => loadConfig({ DSYNC_WEBHOOK_CONCURRENCY: '257' }, key)).to.throw(
      ConfigError,
      /DSYNC_WEBHOOK_CONCURRENCY/,
    );
  });

  it('reads the Redis command timeout (unset: the store default) and names it when it is bad', () => {
    expect(loadConfig({}, key).redisCommandTimeoutMs).to.equal(undefined);
    expect(loadConfig({ DSYNC_REDIS_COMMAND_TIMEOUT: '2s' }, key).redisCommandTimeoutMs).to.equal(2000);
    expect(() => loadConfig({ DSYNC_REDIS_COMMAND_TIMEOUT: 'soon' }, key)).to.throw(
      ConfigError,
      /DSYNC_REDIS_COMMAND_TIMEOUT/,
    );
  });
});

describe('operator namespaces (DSYNC_OPERATOR_NAMESPACES)', () => {
  it('parses a comma-separated list, trimming blanks', () => {
    expect(loadOperatorConfig({ DSYNC_OPERATOR_NAMESPACES: 'tenant-a, tenant-b,' }).operator.namespaces).to.deep.equal([
      'tenant-a',
      'tenant-b',
    ]);
  });

  it('keeps DSYNC_OPERATOR_NAMESPACE as a one-namespace list; unset means all namespaces', () => {
    expect(loadOperatorConfig({ DSYNC_OPERATOR_NAMESPACE: 'team' }).operator.namespaces).to.deep.equal(['team']);
    expect(loadOperatorConfig({}).operator.namespaces).to.equal(undefined);
  });

  it('refuses both variables at once, and names that are not namespaces', async () => {
    expect(() => loadOperatorConfig({ DSYNC_OPERATOR_NAMESPACE: 'a', DSYNC_OPERATOR_NAMESPACES: 'b' })).to.throw(
      'not both',
    );
    expect(() => loadOperatorConfig({ DSYNC_OPERATOR_NAMESPACES: 'Tenant_A' })).to.throw(
      'each entry must be a namespace name',
    );
    expect(() => loadOperatorConfig({ DSYNC_OPERATOR_NAMESPACES: ' , ' })).to.throw('at least one namespace');
  });
});
