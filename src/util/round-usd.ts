/** Twelve decimals: below any price unit, above floating-point noise. */
export const roundUsd = (usd: number) => Math.round(usd * 1e12) / 1e12;
