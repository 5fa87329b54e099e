import { readFileSync } from 'node:fs';

/** Where a gateway's CPU time went, from the .cpuprofile that `node --cpu-prof` writes at exit. */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  where: string;
  selfMs: number;
  /** Share of the time the process was not idle. */
  busyShare: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  busyMs: number;
  topFunctions: ProfileEntry[];
  topGroups: ProfileEntry[];
  /** The gateway's own functions (dist/) by total time, callees included: which step of a request costs what. */
  topOwnInclusive: ProfileEntry[];
}

const IDLE = '(idle)';

function shortUrl(url: string, root: string): string {
  const path = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const nodeModules = path.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) return path.slice(nodeModules + 1);
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

/** A package, a Node.js internal module, or a folder of the gateway's own code. */
function groupOf(frame: CallFrame, short: string): string {
  if (frame.url === '') return frame.functionName.startsWith('(') ? frame.functionName : '(V8 builtins and native code)';
  if (short.startsWith('node:')) {
    const [first = '', second = ''] = short.slice('node:'.length).split('/');
    return first === 'internal' && second !== '' ? `node:internal/${second.replace(/\.js$/, '')}` : `node:${first}`;
  }
  if (short.startsWith('node_modules/')) {
    const [, scopeOrName = '', name = ''] = short.split('/');
    return scopeOrName.startsWith('@') ? `${scopeOrName}/${name}` : scopeOrName;
  }
  return short.includes('/') ? short.slice(0, short.lastIndexOf('/')) : short;
}

interface Total {
  name: string;
  where: string;
  us: number;
}

function top(totals: Map<string, Total>, busyUs: number, count: number): ProfileEntry[] {
  return [...totals.values()]
    .filter((t) => t.name !== IDLE)
    .sort((a, b) => b.us - a.us)
    .slice(0, count)
    .map(({ name, where, us }) => ({ name, where, selfMs: us / 1_000, busyShare: us / busyUs }));
}

/** Self time (time on top of the stack) summed by function (name and script) and by package or folder. */
export function summarizeProfile(file: string, root: string, count = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const byOwnInclusive = new Map<string, Total>();
  const byFunction = new Map<string, Total>();
  const byGroup = new Map<string, Total>();
  const add = (map: Map<string, Total>, key: string, name: string, where: string, us: number) => {
    const entry = map.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    map.set(key, entry);
  };

  let totalUs = 0;
  let idleUs = 0;
  profile.samples.forEach((id, i) => {
    // A sample lasts until the next one is taken.
    const us = profile.timeDeltas[i + 1] ?? 0;
    const frame = frames.get(id);
    if (!frame || us <= 0) return;
    totalUs += us;
    if (frame.functionName === IDLE) idleUs += us;
    const short = shortUrl(frame.url, root);
    const where = short === '' ? '' : `${short}:${frame.lineNumber + 1}`;
    const name = frame.functionName || '(anonymous)';
    // Anonymous functions of one file are told apart by line; named ones are summed across their call sites.
    add(byFunction, frame.functionName ? `${name} ${short}` : `${name} ${where}`, name, where, us);
    const group = groupOf(frame, short);
    add(byGroup, group, group, '', us);

    // Total time: every gateway function on the stack, once per sample even when recursive.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const f = frames.get(at);
      const file = f ? shortUrl(f.url, root) : '';
      if (!f || !file.startsWith('dist/')) continue;
      const fwhere = `${file}:${f.lineNumber + 1}`;
      const fname = f.functionName || '(anonymous)';
      const key = `${fname} ${fwhere}`;
      if (seen.has(key)) continue;
      seen.add(key);
      add(byOwnInclusive, key, fname, fwhere, us);
    }
  });

  const busyUs = totalUs - idleUs;
  return {
    file,
    totalMs: totalUs / 1_000,
    busyMs: busyUs / 1_000,
    topFunctions: top(byFunction, busyUs, count),
    topGroups: top(byGroup, busyUs, 12),
    topOwnInclusive: top(byOwnInclusive, busyUs, count),
  };
}
