import { createHash } from 'node:crypto';

/** The app a request came from, as the datasets rank it (migration 0041). */
export interface AppIdentity {
  /** Lowercase letters, digits and dashes: the referer's host (with its port), else the stated title. */
  slug: string;
  /** The X-Title it stated, else the referer's host. */
  name: string;
}

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);

const hostOf = (referer: string): string | undefined => {
  try {
    const host = new URL(referer).host;
    return host.length > 0 ? host : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The app of a ledger row, from the HTTP-Referer it recorded (`origin`) and
 * the X-Title it stated, or null when it named neither: one app per host, so
 * a referer's paths are one app; a title with no referer names its own app.
 * Lives in store/ because migration 0041 rolls the rows written before it.
 */
export function appIdentity(referer: string | null | undefined, title: string | null | undefined): AppIdentity | null {
  const stated = title?.trim().slice(0, 100) || undefined;
  const host = referer ? hostOf(referer) : undefined;
  const slug = slugOf(host ?? stated ?? '');
  if (!slug) return null;
  return { slug, name: stated ?? host ?? slug };
}

/** A stable numeric id for an app slug (the reference's app_id is an integer): 48 bits of its SHA-256, so within JSON's safe integers. */
export const appNumber = (slug: string): number => Number.parseInt(createHash('sha256').update(slug).digest('hex').slice(0, 12), 16);
