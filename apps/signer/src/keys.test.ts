import { readFileSync } from 'node:fs';
import { SIGNER_COINS } from '@p2p/signer-protocol';
import { describe, expect, it } from 'vitest';
import { deriveAddress, parseAccountKey } from '../../api/src/chains/derive.ts';
import { TEST_ACCOUNT_KEYS } from '../../api/src/chains/test-keys.ts';
import { TEST_SEED_FILE } from '../../api/test/signer.ts';
import { addressAt, deriveKeys, publicAccounts } from './keys.ts';
import { readSeedFile } from './seed.ts';

/*
 * The signer derives what the API derives (DECISIONS §5, §18): the same account keys at the same paths, the same
 * address formats per network; and the public TEST keys the API's tests use are those of the TEST seed.
 */

const seed = readSeedFile(TEST_SEED_FILE);

describe('signer keys', () => {
  it("the TEST seed's account keys are the API's public TEST keys, on every network", () => {
    for (const network of ['mainnet', 'testnet', 'regtest'] as const) {
      const accounts = publicAccounts(deriveKeys(seed, network)).accounts;
      const expected = TEST_ACCOUNT_KEYS[network === 'mainnet' ? 'mainnet' : 'testnet'];
      for (const a of accounts) expect(a.xpub, `${network} ${a.coin}`).toBe(expected[a.coin]);
    }
  });

  it("every address it signs for is the one the API's chain adapters derive from its xpub", () => {
    for (const network of ['mainnet', 'testnet', 'regtest'] as const) {
      const keys = deriveKeys(seed, network);
      for (const coin of SIGNER_COINS) {
        const account = parseAccountKey(keys.accounts[coin].publicExtendedKey);
        for (const index of [0, 1, 7, 2 ** 31 - 1]) {
          expect(addressAt(keys, coin, `0/${index}`), `${network} ${coin} 0/${index}`).toBe(
            deriveAddress(coin, account, index, network),
          );
        }
        const internal = account.deriveChild(1).deriveChild(0).publicKey;
        expect(internal).toEqual(keys.accounts[coin].deriveChild(1).deriveChild(0).publicKey);
      }
    }
    expect(addressAt(deriveKeys(seed, 'regtest'), 'BTC', '0/0')).toMatch(/^bcrt1q/);
  });

  it('publishes public keys only', () => {
    const text = JSON.stringify(publicAccounts(deriveKeys(seed, 'mainnet')));
    expect(text).not.toMatch(/xprv|tprv/);
    expect(text).not.toContain(readFileSync(TEST_SEED_FILE, 'utf8').trim());
  });
});
