const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 6 });
const count = new Intl.NumberFormat('en-US');

export const formatUsd = (value: number | null | undefined) => (value === null || value === undefined ? '—' : usd.format(value));
export const formatCount = (value: number | null | undefined) => (value === null || value === undefined ? '—' : count.format(value));
export const formatMs = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${count.format(Math.round(value))} ms`;
export const formatTime = (iso: string | null | undefined) =>
  iso ? `${new Date(iso).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '—';
export const shortHash = (hash: string) => `${hash.slice(0, 8)}…`;

/** YYYY-MM-DD of a date, in UTC. */
export const utcDay = (date: Date) => date.toISOString().slice(0, 10);

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
/** A size in bytes, in the largest unit it fills (1,536 → 1.5 KiB). */
export function formatBytes(bytes: number): string {
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${count.format(bytes)} bytes` : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${UNITS[unit]}`;
}
export const formatPercent = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;
