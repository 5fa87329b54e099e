import type { BuiltinSlug } from './guardrail-rules.js';
import { builtinPattern, type LinearPattern } from './linear-pattern.js';
import { passesLuhn } from './luhn.js';

/** One thing a builtin filter looks for: what a block reports it as, the pattern, and a check of each match. */
export interface Detector {
  name: string;
  pattern: LinearPattern;
  accept?: (match: string) => boolean;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** US Social Security numbers: area 000, 666 and 900–999, group 00 and serial 0000 are never issued. */
const issuedSsn = (match: string) => {
  const [area = '', group = '', serial = ''] = match.split('-');
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
};

/**
 * Phrases of the common prompt-injection attempts, each reported under its
 * own name (what `error.metadata.patterns` lists). Case-insensitive, with any
 * run of spaces between words.
 */
const INJECTION_PHRASES: readonly [name: string, source: string][] = [
  [
    'ignore all previous instructions',
    String.raw`\bignore\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts|rules|directions)`,
  ],
  [
    'disregard previous instructions',
    String.raw`\bdisregard\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|your)\s+(?:instructions|prompts|rules|directions)`,
  ],
  ['forget your instructions', String.raw`\bforget\s+(?:all\s+)?(?:your|the|previous|prior)\s+(?:instructions|rules|prompts)`],
  [
    'reveal the system prompt',
    String.raw`\b(?:reveal|print|show|repeat)\s+(?:me\s+)?(?:your|the)\s+(?:system|hidden|initial)\s+(?:prompt|instructions)`,
  ],
  ['developer mode', String.raw`\byou\s+are\s+now\s+(?:in\s+)?(?:developer|dan|jailbreak|god)\s+mode`],
];

/** What each builtin slug detects; every pattern runs in linear time (RE2JS). */
export const BUILTIN_DETECTORS: Readonly<Record<BuiltinSlug, readonly Detector[]>> = {
  email: [{ name: 'email', pattern: builtinPattern(String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`) }],
  phone: [
    {
      name: 'phone',
      // +country code and 2–5 groups of digits, or the North American (NNN) NNN-NNNN forms.
      pattern: builtinPattern(
        String.raw`(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){1,4}|(?:\(\d{3}\)\s?|\b\d{3}[.-])\d{3}[.-]\d{4})\b`,
      ),
      accept: (match) => digitsOf(match).length >= 10 && digitsOf(match).length <= 15,
    },
  ],
  ssn: [{ name: 'ssn', pattern: builtinPattern(String.raw`\b\d{3}-\d{2}-\d{4}\b`), accept: issuedSsn }],
  'credit-card': [
    {
      name: 'credit-card',
      // 13 to 19 digits, optionally grouped by spaces or dashes; only those that pass the Luhn check count.
      pattern: builtinPattern(String.raw`\b\d(?:[ -]?\d){12,18}\b`),
      accept: (match) => passesLuhn(digitsOf(match)),
    },
  ],
  'ip-address': [
    {
      name: 'ip-address',
      pattern: builtinPattern(String.raw`\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b`),
    },
  ],
  'regex-prompt-injection': INJECTION_PHRASES.map(([name, source]) => ({
    name,
    pattern: builtinPattern(source, { caseInsensitive: true }),
  })),
};

/** The reference's system-assigned redaction placeholders. */
export const BUILTIN_LABELS: Readonly<Record<BuiltinSlug, string>> = {
  email: '[EMAIL]',
  phone: '[PHONE]',
  ssn: '[SSN]',
  'credit-card': '[CREDIT_CARD]',
  'ip-address': '[IP_ADDRESS]',
  'regex-prompt-injection': '[PROMPT_INJECTION]',
};
