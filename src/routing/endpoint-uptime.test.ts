import { describe, expect, it } from 'vitest';
import { EndpointUptime, sumTallies, UPTIME_WINDOWS, uptimePercent } from './endpoint-uptime.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

describe('EndpointUptime', () => {
  it('counts served and failed attempts per window, by endpoint', () => {
    const uptime = new EndpointUptime();
    uptime.record('m|a', true, T0);
    uptime.record('m|a', false, T0 + 10 * MINUTE);
    uptime.record('m|a', true, T0 + 20 * MINUTE);
    uptime.record('m|a', true, T0 + 20 * MINUTE + 1);
    uptime.record('m|b', false, T0 + 20 * MINUTE);
    const now = T0 + 21 * MINUTE;
    expect(uptime.tally('m|a', UPTIME_WINDOWS.uptime_last_5m, now)).toEqual({ served: 2, attempts: 2 });
    expect(uptime.tally('m|a', UPTIME_WINDOWS.uptime_last_30m, now)).toEqual({ served: 3, attempts: 4 });
    expect(uptimePercent(uptime.tally('m|a', UPTIME_WINDOWS.uptime_last_30m, now))).toBe(75);
    expect(uptimePercent(uptime.tally('m|b', UPTIME_WINDOWS.uptime_last_1d, now))).toBe(0);
    expect(uptimePercent(uptime.tally('m|c', UPTIME_WINDOWS.uptime_last_1d, now))).toBeNull();
  });

  it('leaves attempts older than a day out of the day', () => {
    const uptime = new EndpointUptime();
    uptime.record('m|a', false, T0);
    uptime.record('m|a', true, T0 + 25 * 60 * MINUTE);
    expect(uptime.tally('m|a', UPTIME_WINDOWS.uptime_last_1d, T0 + 25 * 60 * MINUTE)).toEqual({ served: 1, attempts: 1 });
  });

  it('sums tallies', () => {
    expect(
      sumTallies([
        { served: 1, attempts: 2 },
        { served: 3, attempts: 3 },
      ]),
    ).toEqual({ served: 4, attempts: 5 });
    expect(uptimePercent(sumTallies([]))).toBeNull();
  });
});
