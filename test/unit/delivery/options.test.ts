import { expect } from 'chai';
import { InvalidDeliveryOptionError } from '../../../src/delivery/errors.js';
import { DEFAULT_RETRY_SCHEDULE, resolveEngineTuning, resolveWebhookOptions } from '../../../src/delivery/options.js';
import { createDsync } from '../../../src/service.js';
import { MemoryStore } from '../../../src/store/memory/users-groups.js';

describe('delivery options', () => {
  it('default every option in one place', () => {
    expect(resolveEngineTuning(undefined)).to.deep.equal({
      leaseMs: 30_000,
      concurrency: 64,
      pollIntervalMs: 250,
      sweepIntervalMs: 30_000,
      retentionMs: 7 * 86_400_000,
      logRetentionMs: 7 * 86_400_000,
      ordering: 'resource',
      postsPerProcess: 64,
      postsPerDirectory: 64,
    });
    expect(resolveWebhookOptions({})).to.deep.equal({
      allowPrivate: true,
      retrySchedule: [...DEFAULT_RETRY_SCHEDULE],
      timeoutMs: 15_000,
    });
    expect(DEFAULT_RETRY_SCHEDULE).to.have.length(12);
  });

  it('keep what is given', () => {
    expect(resolveEngineTuning({ leaseMs: 300, concurrency: 2 })).to.include({
      leaseMs: 300,
      concurrency: 2,
      pollIntervalMs: 250,
    });
    expect(resolveWebhookOptions({ batchSize: 10, retrySchedule: [200] })).to.deep.include({
      batchSize: 10,
      retrySchedule: [200],
    });
  });

  it('refuse a bad value with a coded error naming the option', () => {
    const cases: Array<[() => unknown, RegExp]> = [
      [() => resolveEngineTuning({ leaseMs: 0 }), /delivery\.leaseMs: must be > 0/],
      [() => resolveEngineTuning({ concurrency: 1.5 }), /delivery\.concurrency/],
      [() => resolveEngineTuning({ pollIntervalMs: Number.NaN }), /delivery\.pollIntervalMs/],
      [() => resolveEngineTuning({ leasMs: 10 } as never), /leasMs/],
      [() => resolveEngineTuning({ ordering: 'user' } as never), /delivery\.ordering/],
      [() => resolveEngineTuning({ postsPerDirectory: 0 }), /delivery\.postsPerDirectory: must be >= 1/],
      [() => resolveEngineTuning({ postsPerDirectory: 257 }), /delivery\.postsPerDirectory: must be <= 256/],
      [() => resolveWebhookOptions({ batchSize: 0 }), /webhook\.batchSize: must be >= 1/],
      [() => resolveWebhookOptions({ batchSize: 1001 }), /webhook\.batchSize: must be <= 1000/],
      [() => resolveWebhookOptions({ retrySchedule: [] }), /webhook\.retrySchedule: must list at least one delay/],
      [() => resolveWebhookOptions({ retrySchedule: [1000, -1] }), /webhook\.retrySchedule\.1: must be >= 0/],
      [() => resolveWebhookOptions({ timeoutMs: -5 }), /webhook\.timeoutMs/],
    ];
    for (const [call, message] of cases) {
      expect(call, String(message)).to.throw(InvalidDeliveryOptionError, message);
    }
  });

  it('are checked when the service is built, before anything starts', () => {
    const build = () =>
      createDsync({ store: new MemoryStore(), externalUrl: 'http://localhost', delivery: { sweepIntervalMs: -1 } });
    expect(build).to.throw(InvalidDeliveryOptionError, /delivery\.sweepIntervalMs/);
    try {
      build();
    } catch (err) {
      expect((err as InvalidDeliveryOptionError).code).to.equal('DSYNC_DELIVERY_INVALID_OPTION');
    }
  });
});
