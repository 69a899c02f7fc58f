import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { COINS, type Coin } from '@p2p/contract';
import { base58xrp } from '@scure/base';
import { HDKey } from '@scure/bip32';
import { bech32 as bech32Lib, bech32m as bech32mLib } from 'bech32';
import bs58check from 'bs58check';
import { getAddress, isAddress } from 'ethers';
import { decodeAccountID, isValidClassicAddress } from 'ripple-address-codec';
import { describe, expect, it } from 'vitest';
import { decodeSegwit, isValidBech32String } from './btc.ts';
import { addressFromPublicKey, deriveAddress, parseAccountKey } from './derive.ts';
import { toChecksumAddress as getChecksum } from './eth.ts';
import { CHAIN_ADAPTERS, isValidAddress } from './registry.ts';
import bip84 from './vectors/bip84.json' with { type: 'json' };
import bip173 from './vectors/bip173.json' with { type: 'json' };
import bip350 from './vectors/bip350.json' with { type: 'json' };
import eip55 from './vectors/eip55.json' with { type: 'json' };
import tron from './vectors/tron.json' with { type: 'json' };
import xrp from './vectors/xrp-codec.json' with { type: 'json' };

const networkOf = (address: string) => (address.toLowerCase().startsWith('tb') ? 'testnet' : 'mainnet');
const other = (n: 'mainnet' | 'testnet') => (n === 'mainnet' ? 'testnet' : 'mainnet');

function scriptOf(address: string): string {
  const s = decodeSegwit(address);
  if (!s) throw new Error(`not segwit: ${address}`);
  const op = s.version === 0 ? 0 : 0x50 + s.version;
  return bytesToHex(Uint8Array.of(op, s.program.length, ...s.program));
}

describe('BTC validator: BIP-173 and BIP-350 vectors', () => {
  it('accepts the valid bech32 and bech32m strings and rejects the invalid ones', () => {
    for (const s of bip173.validBech32) expect(isValidBech32String(s, 'bech32'), s).toBe(true);
    for (const s of bip350.validBech32m) expect(isValidBech32String(s, 'bech32m'), s).toBe(true);
    // No string is valid under both checksums (BIP-350).
    for (const s of bip173.validBech32) expect(isValidBech32String(s, 'bech32m'), s).toBe(false);
    for (const s of bip350.validBech32m) expect(isValidBech32String(s, 'bech32'), s).toBe(false);
    for (const v of bip173.invalidBech32)
      expect(isValidBech32String(v.string, 'bech32'), v.reason).toBe(false);
    for (const v of bip350.invalidBech32m)
      expect(isValidBech32String(v.string, 'bech32m'), v.reason).toBe(false);
  });

  it('accepts every valid segwit address on its own network only, decoding to the listed scriptPubKey', () => {
    for (const v of [...bip173.validAddresses, ...bip350.validAddresses]) {
      const net = networkOf(v.address);
      expect(isValidAddress('BTC', v.address, net), v.address).toBe(true);
      expect(isValidAddress('BTC', v.address, other(net)), v.address).toBe(false);
      expect(scriptOf(v.address)).toBe(v.scriptPubKey);
    }
  });

  it('rejects every invalid address, and the BIP-173 v1+ bech32 addresses that BIP-350 superseded', () => {
    const invalid = [...bip173.invalidAddresses, ...bip350.invalidAddresses, ...bip173.supersededByBip350];
    expect(invalid.length).toBe(28);
    for (const v of invalid) {
      for (const net of ['mainnet', 'testnet'] as const) {
        expect(isValidAddress('BTC', v.address, net), v.address).toBe(false);
      }
    }
  });

  it('checks base58check P2PKH and P2SH per network', () => {
    const genesis = '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'; // the genesis block's coinbase address
    expect(isValidAddress('BTC', genesis, 'mainnet')).toBe(true);
    expect(isValidAddress('BTC', genesis, 'testnet')).toBe(false);
    expect(isValidAddress('BTC', `${genesis.slice(0, -1)}b`, 'mainnet')).toBe(false);
    const hash = hexToBytes('751e76e8199196d454941c45d1b3a323f1433bd6');
    const p2sh = bs58check.encode(Uint8Array.of(0x05, ...hash));
    const tP2pkh = bs58check.encode(Uint8Array.of(0x6f, ...hash));
    expect(isValidAddress('BTC', p2sh, 'mainnet')).toBe(true);
    expect(isValidAddress('BTC', tP2pkh, 'testnet')).toBe(true);
    expect(isValidAddress('BTC', tP2pkh, 'mainnet')).toBe(false);
    // A TRON address is base58check too, but its version byte is not Bitcoin's.
    expect(isValidAddress('BTC', tron.keyToAddress[0]!.address, 'mainnet')).toBe(false);
  });
});

describe('BTC on regtest (CHAIN_NETWORK=regtest, DECISIONS §17)', () => {
  const root = HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'));

  it('derives bcrt1q addresses with the testnet path and the same witness program as on testnet', () => {
    expect(CHAIN_ADAPTERS.BTC.accountPath('regtest')).toBe("m/84'/1'/0'");
    const account = parseAccountKey(root.derive("m/84'/1'/0'").publicExtendedKey);
    for (let i = 0; i < 5; i++) {
      const regtest = bech32Lib.decode(deriveAddress('BTC', account, i, 'regtest'));
      const testnet = bech32Lib.decode(deriveAddress('BTC', account, i, 'testnet'));
      expect(regtest.prefix).toBe('bcrt');
      expect(regtest.words).toEqual(testnet.words);
    }
    // The other coins are as on testnet.
    for (const coin of ['ETH', 'XRP', 'TRX'] as const) {
      expect(CHAIN_ADAPTERS[coin].accountPath('regtest')).toBe(CHAIN_ADAPTERS[coin].accountPath('testnet'));
      const account = parseAccountKey(
        root.derive(CHAIN_ADAPTERS[coin].accountPath('regtest')).publicExtendedKey,
      );
      expect(deriveAddress(coin, account, 3, 'regtest')).toBe(deriveAddress(coin, account, 3, 'testnet'));
    }
  });

  it('accepts bcrt1 and testnet base58 addresses on regtest only', () => {
    const program = bech32Lib.decode('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4').words;
    const regtest = bech32Lib.encode('bcrt', program);
    expect(regtest).toBe('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080');
    expect(isValidAddress('BTC', regtest, 'regtest')).toBe(true);
    expect(isValidAddress('BTC', regtest.toUpperCase(), 'regtest')).toBe(true);
    expect(isValidAddress('BTC', regtest, 'testnet')).toBe(false);
    expect(isValidAddress('BTC', regtest, 'mainnet')).toBe(false);
    expect(isValidAddress('BTC', `${regtest.slice(0, -1)}1`, 'regtest')).toBe(false);
    expect(isValidAddress('BTC', bech32Lib.encode('tb', program), 'regtest')).toBe(false);
    expect(isValidAddress('BTC', bech32Lib.encode('bc', program), 'regtest')).toBe(false);
    // Bitcoin Core's regtest keeps testnet's base58 version bytes.
    const hash = hexToBytes('751e76e8199196d454941c45d1b3a323f1433bd6');
    expect(isValidAddress('BTC', bs58check.encode(Uint8Array.of(0x6f, ...hash)), 'regtest')).toBe(true);
    expect(isValidAddress('BTC', bs58check.encode(Uint8Array.of(0xc4, ...hash)), 'regtest')).toBe(true);
    expect(isValidAddress('BTC', bs58check.encode(Uint8Array.of(0x00, ...hash)), 'regtest')).toBe(false);
  });
});

describe('ETH validator: EIP-55 test cases', () => {
  const all = [...eip55.allCaps, ...eip55.allLower, ...eip55.normal];

  it('accepts every test case and re-encodes the mixed-case ones exactly', () => {
    for (const a of all) expect(isValidAddress('ETH', a, 'mainnet'), a).toBe(true);
    for (const a of eip55.normal) {
      expect(addressFromPublicKeyless(a)).toBe(a);
    }
  });

  it('rejects a mixed-case address with one letter of the wrong case, and malformed ones', () => {
    for (const a of eip55.normal) {
      const i = [...a].findIndex((c, k) => k > 1 && /[a-f]/i.test(c));
      const flipped = a.slice(0, i) + swapCase(a[i]!) + a.slice(i + 1);
      expect(isValidAddress('ETH', flipped, 'mainnet'), flipped).toBe(false);
    }
    for (const bad of ['0x123', `0x${'g'.repeat(40)}`, eip55.normal[0]!.slice(2), `${eip55.normal[0]}00`]) {
      expect(isValidAddress('ETH', bad, 'mainnet'), bad).toBe(false);
    }
  });
});

describe('XRP validator: ripple-address-codec cases', () => {
  it('accepts the valid classic addresses and rejects the invalid ones', () => {
    for (const a of xrp.validClassic) expect(isValidAddress('XRP', a, 'mainnet'), a).toBe(true);
    for (const a of xrp.invalidClassic) expect(isValidAddress('XRP', a, 'mainnet'), a).toBe(false);
    expect(bytesToHex(decodeAccountID(xrp.accountId.address)).toUpperCase()).toBe(xrp.accountId.accountIdHex);
  });

  it('derives the published address of a secp256k1 public key', () => {
    const pub = hexToBytes(xrp.secp256k1PublicKey.publicKey);
    expect(addressFromPublicKey('XRP', pub, 'mainnet')).toBe(xrp.secp256k1PublicKey.address);
  });
});

describe('TRX: key-to-address and validator', () => {
  it('re-derives the published address of a known private key', () => {
    for (const v of tron.keyToAddress) {
      const pub = secp256k1.getPublicKey(hexToBytes(v.privateKey.toLowerCase()), true);
      const address = addressFromPublicKey('TRX', pub, 'mainnet');
      expect(address).toBe(v.address);
      expect(isValidAddress('TRX', address, 'mainnet')).toBe(true);
    }
  });

  it('rejects the invalid cases and a one-character change', () => {
    for (const a of tron.invalid) expect(isValidAddress('TRX', a, 'mainnet'), a).toBe(false);
    const a = tron.keyToAddress[0]!.address;
    expect(isValidAddress('TRX', `${a.slice(0, -1)}D`, 'mainnet')).toBe(false);
  });
});

describe('BIP-32 derivation from an account key', () => {
  it('derives the BIP-84 published receive addresses from the account zpub', () => {
    const account = parseAccountKey(bip84.accountZpub);
    for (const r of bip84.receive) expect(deriveAddress('BTC', account, r.index, 'mainnet')).toBe(r.address);
  });

  it('refuses extended private keys and garbage', () => {
    const root = HDKey.fromMasterSeed(new Uint8Array(32).fill(7));
    expect(() => parseAccountKey(root.privateExtendedKey)).toThrow(/not a watch-only|private/);
    expect(() => parseAccountKey('xpub-nonsense')).toThrow();
  });
});

/** Independent checks, none of which use the code under test. */
const BECH32_PREFIX = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' } as const;
const independent: Record<Coin, (address: string, network: keyof typeof BECH32_PREFIX) => boolean> = {
  BTC: (a, net) => {
    const d = bech32Lib.decode(a);
    const program = bech32Lib.fromWords(d.words.slice(1));
    return d.prefix === BECH32_PREFIX[net] && d.words[0] === 0 && program.length === 20;
  },
  ETH: (a) => isAddress(a) && getAddress(a) === a,
  TRX: (a) => {
    const payload = bs58check.decode(a);
    return a.length === 34 && payload.length === 21 && payload[0] === 0x41;
  },
  XRP: (a) => {
    const raw = base58xrp.decode(a);
    const payload = raw.subarray(0, -4);
    const check = sha256(sha256(payload)).subarray(0, 4);
    return (
      isValidClassicAddress(a) &&
      bytesToHex(raw.subarray(-4)) === bytesToHex(check) &&
      payload.length === 21 &&
      payload[0] === 0
    );
  },
};

describe('derived addresses pass independent validators', () => {
  const root = HDKey.fromMasterSeed(hexToBytes('000102030405060708090a0b0c0d0e0f'));
  const paths: Record<Coin, string> = {
    BTC: "m/84'/0'/0'",
    ETH: "m/44'/60'/0'",
    TRX: "m/44'/195'/0'",
    XRP: "m/44'/144'/0'",
  };

  for (const network of ['mainnet', 'testnet', 'regtest'] as const) {
    it(`every coin on ${network}`, () => {
      for (const coin of COINS) {
        const account = parseAccountKey(root.derive(paths[coin]).publicExtendedKey);
        const seen = new Set<string>();
        for (let i = 0; i < 20; i++) {
          const address = deriveAddress(coin, account, i, network);
          expect(independent[coin](address, network), `${coin} ${address}`).toBe(true);
          expect(isValidAddress(coin, address, network), `${coin} ${address}`).toBe(true);
          seen.add(address);
        }
        expect(seen.size).toBe(20);
        const first = deriveAddress(coin, account, 0, network);
        if (coin === 'BTC') expect(first.startsWith(`${BECH32_PREFIX[network]}1q`)).toBe(true);
        if (coin === 'ETH') expect(first).toMatch(/^0x[0-9a-fA-F]{40}$/);
        if (coin === 'TRX') expect(first).toMatch(/^T/);
        if (coin === 'XRP') expect(first).toMatch(/^r/);
      }
    });
  }

  it('bech32m library agrees: a derived BTC address is not a bech32m string', () => {
    const account = parseAccountKey(root.derive(paths.BTC).publicExtendedKey);
    expect(() => bech32mLib.decode(deriveAddress('BTC', account, 0, 'mainnet'))).toThrow();
  });
});

function swapCase(c: string): string {
  return c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
}

/** EIP-55 re-encoding of an address through our encoder, via its lower-case hex. */
function addressFromPublicKeyless(a: string): string {
  return getChecksum(a.slice(2).toLowerCase());
}
