import { validateMetricName } from 'prom-client';

/** One sample line of the text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  type: string;
  help: string;
  samples: Sample[];
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
/** The series a family of each type may have beside its own name. */
const SUFFIXES: Record<string, string[]> = { histogram: ['_bucket', '_sum', '_count'], summary: ['_sum', '_count'] };

/** Label values with the format's escapes (\\, \", \n) undone; throws on anything else. */
function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  const pair = /\s*([^=,\s]+)="((?:[^"\\]|\\[\\"n])*)"\s*(,|$)/y;
  while (pair.lastIndex < text.length) {
    const match = pair.exec(text);
    if (!match) throw new Error(`bad labels in: ${line}`);
    const [, name, raw] = match;
    if (!LABEL_NAME.test(name!) || name! in labels) throw new Error(`bad label name ${name} in: ${line}`);
    labels[name!] = raw!.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/**
 * Parses Prometheus's text exposition format (0.0.4) strictly: every sample belongs to a family
 * announced by HELP and TYPE, names and label names are valid (prom-client's own rule), values are
 * numbers. Throws on the first line that is not so.
 */
export function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const familyOf = (sample: string) => {
    for (const [name, family] of families) {
      if (name === sample || (SUFFIXES[family.type] ?? []).some((suffix) => `${name}${suffix}` === sample)) return family;
    }
    return undefined;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment) {
      const [, kind, name, rest] = comment;
      if (!validateMetricName(name!)) throw new Error(`bad metric name: ${line}`);
      const family = families.get(name!) ?? { type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest!)) throw new Error(`bad type: ${line}`);
        family.type = rest!;
      } else family.help = rest!;
      families.set(name!, family);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!sample) throw new Error(`bad sample line: ${line}`);
    const [, name, labels, raw] = sample;
    // Prometheus reads values as Go's ParseFloat does: NaN and Inf in any case (prom-client writes "Nan").
    const special = raw!.toLowerCase();
    const value =
      special === 'nan' ? NaN : special === '+inf' || special === 'inf' ? Infinity : special === '-inf' ? -Infinity : Number(raw);
    if (Number.isNaN(value) && special !== 'nan') throw new Error(`bad value: ${line}`);
    const family = familyOf(name!);
    if (!family) throw new Error(`sample of no announced family: ${line}`);
    family.samples.push({ name: name!, labels: labels ? parseLabels(labels, line) : {}, value });
  }
  return families;
}

/** The value of the one sample of `name` whose labels include `labels`; 0 when there is none. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name === name && Object.entries(labels).every(([k, v]) => sample.labels[k] === v)) return sample.value;
    }
  }
  return 0;
}
