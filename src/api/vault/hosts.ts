/**
 * The SDK's VaultSecretWriteRequest.hosts rules: exact DNS hostnames,
 * lowercased, trailing dot removed, duplicates collapsed; schemes, ports,
 * paths, wildcards and empty values refused. The problem, or the hosts.
 */
export function normalizeHosts(hosts: readonly string[]): { hosts: string[] } | { problem: string } {
  const out = new Set<string>();
  for (const [i, raw] of hosts.entries()) {
    const host = raw.trim().toLowerCase().replace(/\.$/, '');
    const label = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
    if (host.length === 0 || host.length > 253 || !new RegExp(`^${label}(?:\\.${label})*$`).test(host)) {
      return { problem: `hosts[${i}] ${JSON.stringify(raw)} must be an exact DNS hostname (no scheme, port, path or wildcard)` };
    }
    out.add(host);
  }
  if (out.size === 0) return { problem: 'hosts must name at least 1 hostname' };
  return { hosts: [...out] };
}
