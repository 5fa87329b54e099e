import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bootstrapKeyProblem, entropyBits } from './bootstrap-key.js';
import { readSettings, SettingsError } from './settings.js';

describe('the bootstrap management key', () => {
  it('estimates entropy from the spread of the characters: none in a run, little in a repeated word', () => {
    expect(entropyBits('a'.repeat(40))).toBe(0);
    expect(entropyBits('ab'.repeat(16))).toBe(32);
    expect(entropyBits('0123456789abcdef'.repeat(2))).toBe(128);
  });

  it('refuses a key shorter than 32 characters, saying how long it is and never echoing it', () => {
    const key = 'sixteen-char-key';
    const problem = bootstrapKeyProblem(key);
    expect(problem).toBe(
      'GATEWAY_BOOTSTRAP_MANAGEMENT_KEY must be at least 32 characters long (it has 16): use a random one, e.g. the output of `openssl rand -hex 32`',
    );
    expect(bootstrapKeyProblem(`${'x'.repeat(31)}y`)).toMatch(/too little entropy/);
  });

  it('refuses 32 characters and more with too little entropy', () => {
    expect(bootstrapKeyProblem('a'.repeat(64))).toMatch(/has too little entropy: about 0 bits .* fewer than 96/);
    expect(bootstrapKeyProblem('passwordpasswordpasswordpassword')).toMatch(/about 88 bits/);
  });

  it('takes random keys and the keys the tests and docs use', () => {
    for (let i = 0; i < 100; i++) {
      expect(bootstrapKeyProblem(randomBytes(32).toString('hex'))).toBeUndefined();
      expect(bootstrapKeyProblem(randomBytes(24).toString('base64url'))).toBeUndefined();
    }
    expect(bootstrapKeyProblem('sk-mg-v1-test-bootstrap-management-key-0000000000000000')).toBeUndefined();
    expect(bootstrapKeyProblem('sk-demo-management-key-4f9c2a7e81d3b605')).toBeUndefined();
  });

  it('stops readSettings, so that no command starts with a weak key', () => {
    expect(() => readSettings({ GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: 'sk-demo-management-key-0000' }, () => undefined)).toThrow(SettingsError);
    expect(readSettings({ GATEWAY_BOOTSTRAP_MANAGEMENT_KEY: '' }, () => undefined).bootstrapManagementKey).toBeUndefined();
  });
});
