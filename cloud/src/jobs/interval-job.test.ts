import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { intervalJob } from './interval-job';

describe('intervalJob', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the pass every interval, skips a tick while one is under way, and logs a failure', async () => {
    const logger = pino({ level: 'silent' });
    const errors = vi.spyOn(logger, 'error');
    let finish: () => void = () => undefined;
    let passes = 0;
    const job = intervalJob({
      intervalMs: 1_000,
      pass: () => {
        passes += 1;
        if (passes === 3) return Promise.reject(new Error('store down'));
        return new Promise<void>((resolve) => (finish = resolve));
      },
      logger,
      failure: 'test pass failed',
    });
    job.start();
    job.start(); // once only
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000); // still under way: no overlap
    expect(passes).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(2);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(3);
    expect(errors).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.any(Error) }),
      'test pass failed',
    );

    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(4);
    const stopped = job.stop();
    let done = false;
    void Promise.resolve(stopped).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false); // waits for the pass under way
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(passes).toBe(4);
  });
});
