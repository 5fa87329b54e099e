/** Providers publish USD per million tokens; the catalog keeps USD per token. */
export const perMillion = (usd: number): number => Number((usd / 1_000_000).toPrecision(12));

/** Unix seconds of a release date (UTC midnight). */
export const released = (isoDate: string): number => Date.parse(`${isoDate}T00:00:00Z`) / 1000;
