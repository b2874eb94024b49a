import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { bindingWindow } from '../../../src/ratelimit/decision-headers.js';
import { DEFAULT_INFLIGHT_RULES, matchInflight } from '../../../src/ratelimit/inflight-rules.js';
import { PRESETS, presetFor } from '../../../src/ratelimit/presets.js';
import { ReportThrottle } from '../../../src/ratelimit/report-log.js';

const key = () => 'generated';
const limits = (env: Record<string, string>) => loadConfig(env, key).rateLimits;

describe('rate limits: presets and settings', () => {
  it('holds the documented preset table: /scim/** and * rows for every column', () => {
    expect(PRESETS).to.deep.equal({
      developer: { scim: { burst: 1, sustained: 10 }, default: { burst: 5, sustained: 150 } },
      production: { scim: { burst: 10, sustained: 300 }, default: { burst: 40, sustained: 900 } },
      growth: { scim: { burst: 10, sustained: 300 }, default: { burst: 400, sustained: 9000 } },
      enterprise: { scim: { burst: 20, sustained: 600 }, default: { burst: 800, sustained: 18000 } },
      nonProduction: { scim: { burst: 1, sustained: 10 }, default: { burst: 5, sustained: 150 } },
    });
  });

  it('uses the Developer row in every environment and the non-production row for paid plans outside production', () => {
    for (const env of ['production', 'staging', 'development'] as const)
      expect(presetFor('developer', env)).to.deep.equal(PRESETS.developer);
    expect(presetFor('enterprise', 'staging')).to.deep.equal(PRESETS.nonProduction);
    expect(presetFor('growth', 'development')).to.deep.equal(PRESETS.nonProduction);
    expect(presetFor('enterprise', 'production')).to.deep.equal(PRESETS.enterprise);
  });

  it('is off unless DSYNC_RATE_LIMIT_PLAN is set; the environment defaults to production', () => {
    expect(limits({})).to.equal(undefined);
    expect(limits({ DSYNC_RATE_LIMIT_PLAN: 'production' })).to.deep.equal({
      plan: 'production',
      environment: 'production',
      buckets: PRESETS.production,
    });
    expect(limits({ DSYNC_RATE_LIMIT_PLAN: 'Growth', DSYNC_RATE_LIMIT_ENV: 'Staging' })!.buckets).to.deep.equal(
      PRESETS.nonProduction,
    );
  });

  it('maps the legacy plans: essential = production, scale = growth', () => {
    expect(limits({ DSYNC_RATE_LIMIT_PLAN: 'essential' })).to.include({ plan: 'production' });
    expect(limits({ DSYNC_RATE_LIMIT_PLAN: 'scale' })).to.include({ plan: 'growth' });
    expect(limits({ DSYNC_RATE_LIMIT_PLAN: 'scale' })!.buckets).to.deep.equal(PRESETS.growth);
  });

  it('applies overrides per bucket on top of the preset', () => {
    const p = limits({ DSYNC_RATE_LIMIT_PLAN: 'developer', DSYNC_RATE_LIMIT_OVERRIDES: 'scim=20/600' })!;
    expect(p.buckets).to.deep.equal({ scim: { burst: 20, sustained: 600 }, default: PRESETS.developer.default });
    const both = limits({
      DSYNC_RATE_LIMIT_PLAN: 'growth',
      DSYNC_RATE_LIMIT_OVERRIDES: ' scim=20/600 , default=800/18000',
    })!;
    expect(both.buckets).to.deep.equal({
      scim: { burst: 20, sustained: 600 },
      default: { burst: 800, sustained: 18000 },
    });
  });

  it('refuses bad values with a message naming the variable', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [
        { DSYNC_RATE_LIMIT_PLAN: 'free' },
        /DSYNC_RATE_LIMIT_PLAN: DSYNC_RATE_LIMIT_PLAN must be one of developer, production, growth, enterprise, essential, scale/,
      ],
      [
        { DSYNC_RATE_LIMIT_PLAN: 'growth', DSYNC_RATE_LIMIT_ENV: 'prod' },
        /DSYNC_RATE_LIMIT_ENV: .*production, staging, development/,
      ],
      [
        { DSYNC_RATE_LIMIT_PLAN: 'growth', DSYNC_RATE_LIMIT_OVERRIDES: 'users=1/10' },
        /DSYNC_RATE_LIMIT_OVERRIDES: "users=1\/10" is not <bucket>=<rps>\/<rpm>/,
      ],
      [
        { DSYNC_RATE_LIMIT_PLAN: 'growth', DSYNC_RATE_LIMIT_OVERRIDES: 'scim=20' },
        /DSYNC_RATE_LIMIT_OVERRIDES: "scim=20"/,
      ],
      [{ DSYNC_RATE_LIMIT_PLAN: 'growth', DSYNC_RATE_LIMIT_OVERRIDES: 'scim=0/10' }, /scim burst must be > 0/],
      [
        { DSYNC_RATE_LIMIT_PLAN: 'growth', DSYNC_RATE_LIMIT_OVERRIDES: 'scim=1/10,scim=2/20' },
        /bucket scim is given more than once/,
      ],
      [{ DSYNC_RATE_LIMIT_OVERRIDES: 'scim=1/10' }, /DSYNC_RATE_LIMIT_OVERRIDES needs DSYNC_RATE_LIMIT_PLAN/],
    ];
    for (const [env, message] of bad) expect(() => limits(env), JSON.stringify(env)).to.throw(ConfigError, message);
  });
});

describe('rate limits: inflight rules', () => {
  const match = (method: string, path: string) => matchInflight(DEFAULT_INFLIGHT_RULES, method, path, 'dir1');

  it('enforces writes to one SCIM user or group, keyed {project}{full_path}', () => {
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const m = match(method, '/api/scim/v2.0/d1/Groups/g1');
      expect(m?.rule.action, method).to.equal('enforce');
      expect(m?.key).to.equal('dir1/api/scim/v2.0/d1/Groups/g1');
    }
    expect(match('PATCH', '/api/scim/v2.0/d1/Users/u1')?.rule.action).to.equal('enforce');
  });

  it('only reports concurrent creates, and enforces management writes on one directory', () => {
    expect(match('POST', '/api/scim/v2.0/d1/Users')?.rule.action).to.equal('report-only');
    expect(match('POST', '/api/scim/v2.0/d1/Groups')?.rule.action).to.equal('report-only');
    expect(match('PATCH', '/api/v1/directory-sync/d1')?.rule.action).to.equal('enforce');
    expect(match('POST', '/api/v1/directory-sync/d1/events/replay')?.rule.action).to.equal('enforce');
    expect(match('POST', '/api/v1/directory-sync')).to.equal(undefined);
  });

  it('never matches GET, HEAD or OPTIONS', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(match(method, '/api/scim/v2.0/d1/Groups/g1'), method).to.equal(undefined);
      expect(match(method, '/api/v1/directory-sync/d1'), method).to.equal(undefined);
    }
  });
});

describe('rate limits: headers', () => {
  const burst = { kind: 'burst' as const, limit: 10, remaining: 3, resetMs: 400 };
  const sustained = { kind: 'sustained' as const, limit: 300, remaining: 2, resetMs: 50_000 };

  it('reports the window with the least left when allowed, and the refusing window that frees last when refused', () => {
    expect(bindingWindow({ allowed: true, windows: [burst, sustained], refusedBy: [] })).to.equal(sustained);
    expect(
      bindingWindow({ allowed: false, windows: [{ ...burst, remaining: 0 }, sustained], refusedBy: ['burst'] }).kind,
    ).to.equal('burst');
    expect(
      bindingWindow({ allowed: false, windows: [burst, sustained], refusedBy: ['burst', 'sustained'] }).kind,
    ).to.equal('sustained');
  });
});

describe('rate limits: report-only log throttle', () => {
  it('logs the first violation of a key, then one a window with the count of those it skipped', () => {
    const t = new ReportThrottle(10_000, 3);
    expect(t.take('scim-create d1', 0)).to.equal(0);
    expect(t.take('scim-create d1', 1)).to.equal(undefined);
    expect(t.take('scim-create d1', 2)).to.equal(undefined);
    expect(t.take('scim-create d2', 3), 'another directory is logged on its own').to.equal(0);
    expect(t.take('scim-create d1', 10_000)).to.equal(2);
    expect(t.take('scim-create d1', 10_001)).to.equal(undefined);
  });

  it('stays bounded: past maxKeys it forgets and starts over', () => {
    const t = new ReportThrottle(10_000, 2);
    t.take('a', 0);
    t.take('b', 0);
    expect(t.take('c', 1)).to.equal(0);
    expect(t.take('a', 2), 'forgotten, so logged again').to.equal(0);
  });
});
