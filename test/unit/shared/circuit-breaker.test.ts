import { describe, expect, it } from 'vitest';
import { CircuitBreaker, CircuitOpenError } from '../../../shared/circuit-breaker';
import { FakeClock } from '../../support/fake-clock';

const config = {
  failureThreshold: 3,
  failureWindowMs: 10_000,
  cooldownMs: 30_000,
  halfOpenProbes: 2,
};

function deferred<T>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('CircuitBreaker', () => {
  it('opens after the threshold of failures inside the window', () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, config);
    b.recordFailure();
    b.recordFailure();
    expect(b.getState()).toBe('closed');
    b.recordFailure('boom');
    expect(b.getState()).toBe('open');
    expect(b.tryAcquire()).toBe(false);
    expect(b.stats()).toMatchObject({ totalTrips: 1, lastError: 'boom' });
  });

  it('forgets failures that fall out of the window', () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, config);
    b.recordFailure();
    b.recordFailure();
    clock.advance(10_001);
    b.recordFailure();
    expect(b.getState()).toBe('closed');
  });

  it('turns half-open by its own timer and closes after every probe succeeds', () => {
    const clock = new FakeClock();
    const changes: string[] = [];
    const b = new CircuitBreaker('t', clock, config, (from, to) => changes.push(`${from}>${to}`));
    b.trip();
    clock.advance(29_999);
    expect(changes).toEqual(['closed>open']);
    clock.advance(1);
    // Nobody called the breaker: the timer moved it.
    expect(changes).toEqual(['closed>open', 'open>half_open']);
    expect(b.tryAcquire()).toBe(true);
    b.recordSuccess();
    expect(b.getState()).toBe('half_open');
    expect(b.tryAcquire()).toBe(true);
    b.recordSuccess();
    expect(b.getState()).toBe('closed');
    expect(clock.pendingTimers()).toBe(0);
  });

  it('admits only the configured number of concurrent probes in half-open', async () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, config);
    b.trip();
    clock.advance(30_000);
    const calls = Array.from({ length: 5 }, () => deferred<number>());
    const results = calls.map((d) =>
      b
        .execute(() => d.promise)
        .then(
          (v) => v,
          (e: unknown) => e,
        ),
    );
    // Two probes went through; the other three were refused at once.
    const refused = await Promise.all(results.slice(2));
    for (const r of refused) expect(r).toBeInstanceOf(CircuitOpenError);
    calls[0]!.resolve(1);
    calls[1]!.resolve(2);
    expect(await results[0]).toBe(1);
    expect(await results[1]).toBe(2);
    expect(b.getState()).toBe('closed');
  });

  it('reopens on a failed probe while another probe is in flight', async () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, config);
    b.trip();
    clock.advance(30_000);
    const slow = deferred<number>();
    const first = b.execute(() => slow.promise);
    await expect(b.execute(() => Promise.reject(new Error('still down')))).rejects.toThrow(
      'still down',
    );
    expect(b.getState()).toBe('open');
    slow.resolve(1);
    await first;
    // A late success of the older probe does not close an open circuit.
    expect(b.getState()).toBe('open');
  });

  it('frees the slot of a probe that never reports', () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, {
      ...config,
      halfOpenProbes: 1,
      probeTimeoutMs: 5_000,
    });
    b.trip();
    clock.advance(30_000);
    expect(b.tryAcquire()).toBe(true);
    expect(b.tryAcquire()).toBe(false);
    clock.advance(5_000);
    expect(b.tryAcquire()).toBe(true);
  });

  it('restored open after a restart, it times into half-open for the time left', () => {
    const clock = new FakeClock();
    const before = new CircuitBreaker('t', clock, config);
    before.trip('down');
    clock.advance(10_000);
    const snap = JSON.parse(JSON.stringify(before.snapshot()));
    before.dispose();

    const restarted = new FakeClock(clock.now() + 5_000); // the restart took 5 s
    const changes: string[] = [];
    const after = new CircuitBreaker('t', restarted, config, (from, to) =>
      changes.push(`${from}>${to}`),
    );
    after.restore(snap);
    expect(after.getState()).toBe('open');
    expect(after.retryInMs()).toBe(15_000);
    restarted.advance(15_000);
    expect(changes).toEqual(['open>half_open']);
    expect(after.stats()).toMatchObject({ totalTrips: 1, lastError: 'down' });
  });

  it('restored open after its cooldown passed, it is half-open at once', () => {
    const clock = new FakeClock();
    const before = new CircuitBreaker('t', clock, config);
    before.trip();
    const snap = before.snapshot();
    const later = new FakeClock(clock.now() + 60_000);
    const after = new CircuitBreaker('t', later, config);
    after.restore(snap);
    expect(after.getState()).toBe('half_open');
  });

  it('passes values and errors through execute, counting synchronous throws', async () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, { ...config, failureThreshold: 2 });
    expect(await b.execute(async () => 'ok')).toBe('ok');
    await expect(
      b.execute(() => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    await expect(b.execute(() => Promise.reject(new Error('async')))).rejects.toThrow('async');
    const refused = await b.execute(async () => 1).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CircuitOpenError);
    expect((refused as CircuitOpenError).retryInMs).toBe(30_000);
  });

  it('resets by hand', () => {
    const clock = new FakeClock();
    const b = new CircuitBreaker('t', clock, config);
    b.trip();
    b.reset();
    expect(b.getState()).toBe('closed');
    expect(b.tryAcquire()).toBe(true);
  });
});
