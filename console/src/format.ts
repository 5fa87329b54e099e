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
