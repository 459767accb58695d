import { describe, expect, it } from 'vitest';
import { fingerprint, normalise } from '../../../../../main/engine/guards/output-fingerprint';
import { StuckDetector, newStuckState } from '../../../../../main/engine/guards/stuck-detector';
import { GuardSettings } from '../../../../../shared/settings/guards';

const config = { ...GuardSettings.parse({}).stuck, pollingTools: ['ci_status'] };
const detector = new StuckDetector(() => config);
const out = (output: string) => ({ ok: true, output });
const err = (message: string) => ({ ok: false, message });

describe('fingerprint', () => {
  it('masks ids, timestamps and numbers', () => {
    expect(
      normalise(
        'Request 7f3a9c01-2b4d-4e5f-8a9b-0c1d2e3f4a5b failed at 2026-01-05T09:00:01Z after 3 tries',
      ),
    ).toBe('request <id> failed at <time> after # tries');
    expect(fingerprint('job 01HQ3ZK8Y7W6V5T4 done in 12.5s at 12:01:07')).toBe(
      fingerprint('job 01HQ40AAB1C2D3E4 done in 9.1s at 12:03:44'),
    );
    expect(fingerprint('tests passed')).not.toBe(fingerprint('tests failed'));
  });
});

describe('StuckDetector', () => {
  it('flags the same output three times in a row, ids and numbers aside', () => {
    const s = newStuckState();
    expect(detector.record(s, 0, out('created file 1 (id abc123def456)'))).toEqual([]);
    expect(detector.record(s, 1, out('created file 2 (id 99ff00aa11bb)'))).toEqual([]);
    const [v] = detector.record(s, 2, out('Created file 3 (id 0000aaaa1111)'));
    expect(v).toMatchObject({
      breaker: 'stuck',
      tripped: true,
      reason: 'REPEATED_OUTPUT',
      current: 3,
      threshold: 3,
    });
    expect(detector.check(s, 3)[0]?.reason).toBe('REPEATED_OUTPUT');
  });

  it('flags the same error three times in a row', () => {
    const s = newStuckState();
    detector.record(s, 0, err('ENOENT: open /tmp/x-1'));
    detector.record(s, 1, err('ENOENT: open /tmp/x-2'));
    expect(detector.record(s, 2, err('ENOENT: open /tmp/x-3'))[0]?.reason).toBe('REPEATED_ERROR');
  });

  it('finds an A-B-A-B oscillation', () => {
    const s = newStuckState();
    for (const [i, text] of ['add import', 'remove import', 'add import'].entries()) {
      expect(detector.record(s, i, out(text))).toEqual([]);
    }
    expect(detector.record(s, 3, out('remove import'))[0]).toMatchObject({
      reason: 'OSCILLATION_DETECTED',
      current: 2,
    });
  });

  it('finds an A-B-C-A-B-C cycle, mixing outputs and errors', () => {
    const s = newStuckState();
    const cycle = [out('edit config'), out('run build'), err('build failed: 3 errors')];
    const verdicts = [...cycle, ...cycle].map((o, i) => detector.record(s, i, o));
    expect(verdicts.slice(0, 5).flat()).toEqual([]);
    expect(verdicts[5]![0]).toMatchObject({ reason: 'OSCILLATION_DETECTED', current: 3 });
  });

  it('does not flag a sequence that keeps moving', () => {
    const s = newStuckState();
    const texts = ['a', 'b', 'a', 'c', 'b', 'd', 'a', 'b', 'c', 'd'];
    for (const [i, t] of texts.entries())
      expect(detector.record(s, i, out(`step ${t}`.replace(/\d/g, '')))).toEqual([]);
  });

  it('forgets outcomes older than its window', () => {
    const s = newStuckState();
    detector.record(s, 0, out('same'));
    detector.record(s, 1, out('same'));
    expect(detector.record(s, 5 * 60_000 + 10, out('same'))).toEqual([]);
  });

  it('releases the latch when something new comes out, or when the window passes', () => {
    const s = newStuckState();
    for (let i = 0; i < 3; i++) detector.record(s, i, out('same'));
    detector.record(s, 10, out('something else'));
    expect(detector.check(s, 11)).toEqual([]);
    for (let i = 0; i < 3; i++) detector.record(s, 20 + i, out('again'));
    expect(detector.check(s, 30)[0]?.tripped).toBe(true);
    expect(detector.check(s, 23 + 5 * 60_000)).toEqual([]);
  });

  it('exempts polling tools and suggests a growing back-off instead', () => {
    const s = newStuckState();
    const poll = { ok: true, output: 'pipeline 42 pending', tool: 'ci_status' };
    expect(detector.record(s, 0, poll)).toEqual([]);
    expect(detector.record(s, 1, poll)).toEqual([]);
    const third = detector.record(s, 2, poll)[0]!;
    expect(third).toMatchObject({ tripped: false, warning: true, reason: 'POLLING_BACKOFF' });
    expect(third.suggestion).toContain('wait 1 s');
    expect(detector.record(s, 3, poll)[0]!.suggestion).toContain('wait 2 s');
    expect(detector.check(s, 4)).toEqual([]);
  });
});
