import { describe, expect, it } from 'vitest';
import { addressLooksValid } from './address-format.ts';

describe('addressLooksValid (the form check of a withdrawal address)', () => {
  it('accepts the shapes of each chain', () => {
    const ok: [Parameters<typeof addressLooksValid>[0], string][] = [
      ['BTC', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
      ['BTC', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4'],
      ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
      ['BTC', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
      ['BTC', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'],
      ['ETH', '0x52908400098527886E0F7030069857D2E4169EE7'],
      ['TRX', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
      ['XRP', 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
      ['ETH', '  0x52908400098527886e0f7030069857d2e4169ee7 '],
    ];
    for (const [coin, a] of ok) expect([coin, a, addressLooksValid(coin, a)]).toEqual([coin, a, true]);
  });

  it('refuses another chain, mixed-case bech32, wrong characters, lengths and empty input', () => {
    const bad: [Parameters<typeof addressLooksValid>[0], string][] = [
      ['BTC', '0x52908400098527886E0F7030069857D2E4169EE7'],
      ['BTC', 'bc1Qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
      ['BTC', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN0'],
      ['ETH', '0x5290840009852788'],
      ['ETH', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7'],
      ['TRX', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU'],
      ['TRX', 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjUI'],
      ['XRP', 'xHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh'],
      ['XRP', ''],
      ['XRP', '   '],
    ];
    for (const [coin, a] of bad) expect([coin, a, addressLooksValid(coin, a)]).toEqual([coin, a, false]);
  });
});
