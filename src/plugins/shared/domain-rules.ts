/**
 * Domain lists of the web plugins (allowed/blocked for web-fetch,
 * include/exclude for web search). A rule is a host name, matching it and
 * its subdomains (`example.com` matches `docs.example.com`); `*.example.com`
 * matches only subdomains; a path after the host narrows the rule to URLs
 * under it (`openai.com/blog`). Case does not matter.
 */
export function matchesDomainRule(url: URL, rule: string): boolean {
  const trimmed = rule
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '');
  const slash = trimmed.indexOf('/');
  const hostRule = slash < 0 ? trimmed : trimmed.slice(0, slash);
  const pathRule = slash < 0 ? '' : trimmed.slice(slash).replace(/\/+$/, '');
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const hostMatches = hostRule.startsWith('*.') ? host.endsWith(hostRule.slice(1)) : host === hostRule || host.endsWith(`.${hostRule}`);
  if (!hostMatches) return false;
  if (!pathRule) return true;
  const path = url.pathname.toLowerCase();
  return path === pathRule || path.startsWith(`${pathRule}/`);
}

export interface DomainLists {
  allowed?: readonly string[] | undefined;
  blocked?: readonly string[] | undefined;
}

/** Why a URL is refused by the lists, or undefined: a blocked rule wins over an allowed one. */
export function domainRefusal(url: URL, lists: DomainLists): string | undefined {
  const blocked = lists.blocked?.find((rule) => matchesDomainRule(url, rule));
  if (blocked !== undefined) return `${url.hostname} is blocked by the rule "${blocked}"`;
  if (lists.allowed && lists.allowed.length > 0 && !lists.allowed.some((rule) => matchesDomainRule(url, rule)))
    return `${url.hostname} is not in the allowed domains (${lists.allowed.join(', ')})`;
  return undefined;
}
