import { describe, expect, it } from 'vitest';
import { invalidRanges, publicAddressPolicy } from './address-policy.js';

describe('publicAddressPolicy', () => {
  const policy = publicAddressPolicy();

  it.each([['93.184.216.34'], ['8.8.8.8'], ['2606:4700:4700::1111']])('lets the public address %s through', (address) => {
    expect(policy(address)).toBeUndefined();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fd00::1', 'uniqueLocal'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['2002:7f00:1::', '6to4'],
    ['64:ff9b::7f00:1', 'rfc6052'],
  ])('refuses %s (%s)', (address, range) => {
    expect(policy(address)).toBe(`${address} is a ${range} address`);
  });

  it('refuses what is not an address', () => {
    expect(policy('example.com')).toBe('example.com is not an IP address');
  });

  it('lets an operator open a range on purpose, and only that range', () => {
    const open = publicAddressPolicy(['127.0.0.1/32', 'fd00::/8']);
    expect(open('127.0.0.1')).toBeUndefined();
    expect(open('::ffff:127.0.0.1')).toBeUndefined();
    expect(open('fd12::3')).toBeUndefined();
    expect(open('127.0.0.2')).toBe('127.0.0.2 is a loopback address');
    expect(open('169.254.169.254')).toBe('169.254.169.254 is a linkLocal address');
  });
});

describe('invalidRanges', () => {
  it('names the entries that are not CIDR ranges', () => {
    expect(invalidRanges(['10.0.0.0/8', '10.0.0.0', 'nonsense', '::1/128'])).toEqual(['10.0.0.0', 'nonsense']);
  });
});
