import type { OpsCustodyCoin, Transfer } from '@p2p/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainKeys } from '../src/chains/index.ts';
import { account, balanceOf } from '../src/ledger/index.ts';
import {
  available,
  type Depositor,
  depositor,
  scanToTip,
  watcherOf,
} from '../src/modules/deposits/test-kit.ts';
import { type CoinPayout, signerFingerprint } from '../src/modules/withdrawals/index.ts';
import { randomRecipient } from './btc-addresses.ts';
import { createMember, type FixtureMember } from './fixtures.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { hasLitecoind, type Litecoind, startLitecoind, toLitecoinRegtestAddress } from './nodes.ts';
import { startSigner, type TestSigner } from './signer.ts';

/*
 * DECISIONS §18 for BTC, end to end: the API is built with CHAIN_RPC_BTC at Litecoin Core regtest (DECISIONS §17)
 * and the real signer process given only through SIGNER_URL/SIGNER_TOKEN, so the payout worker is the one
 * buildApp makes from PAYOUT_FACTORIES with its default (remote) signer; the BTC payer asks that signer for its
 * master fingerprint. A member's deposit credited by the watcher pays a withdrawal below WITHDRAW_AUTO_MAX_BTC
 * with no operator; the node shows the recipient paid exactly the amount, and the ledger the network fee.
 */

const SAT = 100_000_000n;

describe.skipIf(!hasLitecoind())(
  'BTC withdrawals paid by themselves (Litecoin Core regtest, real signer)',
  () => {
    let node: Litecoind;
    let signer: TestSigner;
    let t: TestApp;
    let d: Depositor;
    let op: FixtureMember;
    const cold = randomRecipient();

    beforeAll(async () => {
      [node, signer] = await Promise.all([
        startLitecoind(),
        startSigner({ env: { CHAIN_NETWORK: 'regtest' } }),
      ]);
      t = await createTestApp(
        {
          ...signer.apiEnv,
          CHAIN_RPC_BTC: node.url,
          CHAIN_CONFIRMATIONS_BTC: '1',
          CHAIN_START_HEIGHT_BTC: String((await node.height()) + 1),
          CHAIN_TIMEOUT_MS: '30000',
          WITHDRAW_AUTO_MAX_BTC: '0.3',
          WITHDRAW_MISSING_GRACE_SEC: '3600',
          COLD_ADDRESS_BTC: cold,
        },
        { startPayouts: false, startWatchers: false },
      );
      d = await depositor(t, 'BTC');
      op = await createMember(t, { role: 'OPERATOR' });
    }, 180_000);

    afterAll(async () => {
      await t?.close();
      await signer?.stop();
      await node?.stop();
    });

    function worker() {
      const w = t.app.payouts.workers.get('BTC');
      if (!w) throw new Error('no BTC payout worker');
      return w;
    }

    function payout(): CoinPayout {
      const p = t.app.payouts.payouts.get('BTC');
      if (!p) throw new Error('no BTC payout');
      return p;
    }

    async function pass(): Promise<void> {
      const r = await worker().pass();
      expect(r.error).toBeUndefined();
    }

    async function row(id: number) {
      return t.app.deps.db
        .selectFrom('transfers')
        .select(['status', 'txid', 'last_error'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    }

    /** What the node's UTXO set holds at `address` (a bcrt1 address, asked as its rltc1 twin), satoshi. */
    async function onNode(address: string): Promise<{ sats: bigint; outputs: number }> {
      const scan = await node.rpc<{ total_amount: number; unspents: unknown[] }>('scantxoutset', [
        'start',
        [`addr(${toLitecoinRegtestAddress(address)})`],
      ]);
      return { sats: BigInt(scan.total_amount.toFixed(8).replace('.', '')), outputs: scan.unspents.length };
    }

    it('is paid by the worker buildApp made with the remote signer', () => {
      expect(t.app.payouts.coins.has('BTC')).toBe(true);
      expect(payout().hotAddress).toBeNull();
    });

    it('a credited deposit pays a withdrawal below WITHDRAW_AUTO_MAX_BTC: COMPLETED, exact amount, fee posted', async () => {
      const depositTxid = await node.pay(d.wallet.address, '0.5');
      await node.mine(1);
      await scanToTip(watcherOf(t, 'BTC'));
      expect(await available(t, d, 'BTC')).toBe(SAT / 2n);

      const to = randomRecipient();
      const r = await t.call<Transfer>('POST', '/transfer/request', {
        token: d.member.token,
        body: {
          fromWalletId: d.wallet.id,
          destType: 'EXTERNAL',
          destExternalAddress: to,
          amount: '0.2',
          stepUp: { password: d.member.password },
        },
      });
      expect(r.status).toBe(200);
      const id = r.body.returnData.transferId;

      await pass();
      const sent = await row(id);
      expect(sent).toMatchObject({ status: 'BROADCAST', last_error: null });
      expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
      const [block] = await node.mine(1);
      await pass();
      expect((await row(id)).status).toBe('COMPLETED');

      // the node: the recipient holds exactly the amount, in one output of our transaction
      expect(await onNode(to)).toEqual({ sats: 20_000_000n, outputs: 1 });
      const tx = await node.rpc<{ vin: { txid: string }[]; vout: { value: number }[] }>('getrawtransaction', [
        sent.txid,
        true,
        block,
      ]);
      expect(tx.vin.map((i) => i.txid)).toEqual([depositTxid]);
      const paidOut = tx.vout.reduce((s, o) => s + BigInt(o.value.toFixed(8).replace('.', '')), 0n);
      const fee = SAT / 2n - paidOut;
      expect(fee).toBeGreaterThan(0n);
      // the platform paid the fee (network-fee:BTC), the member the amount (and WITHDRAW_FEE_BTC, 0 here)
      expect(await balanceOf(t.app.deps.db, account.networkFee('BTC'))).toBe(-fee);
      expect(await available(t, d, 'BTC')).toBe(SAT / 2n - 20_000_000n);

      // what is left is the change output: the hot balance on record and what the node holds at our addresses
      const change = SAT / 2n - 20_000_000n - fee;
      expect(await payout().hotBalance()).toBe(change);
      expect(await payout().holdings([d.wallet.address])).toBe(change);
      await t.assertLedger();
    });

    it("takes the master fingerprint only from a signer on CHAIN_NETWORK holding XPUB_BTC's key", async () => {
      const real = await signer.client.accounts();
      const key = chainKeys().accounts.BTC;
      const of = (answer: typeof real) => ({
        sign: () => Promise.reject(new Error('not asked')),
        accounts: async () => answer,
      });
      expect(Buffer.from(await signerFingerprint(of(real), key, 'regtest')).toString('hex')).toBe(
        real.masterFingerprint,
      );
      await expect(signerFingerprint(of({ ...real, network: 'testnet' }), key, 'regtest')).rejects.toThrow(
        /on testnet, not regtest/,
      );
      const ethXpub = real.accounts.find((a) => a.coin === 'ETH')?.xpub as string;
      const otherKey = {
        ...real,
        accounts: real.accounts.map((a) => (a.coin === 'BTC' ? { ...a, xpub: ethXpub } : a)),
      };
      await expect(signerFingerprint(of(otherKey), key, 'regtest')).rejects.toThrow(/not XPUB_BTC/);
      await expect(signerFingerprint(null, key, 'regtest')).rejects.toThrow(/no signer/);
    });

    it("the console's custody panel reads the cold address's balance from the node", async () => {
      await node.pay(cold, '0.25');
      await node.mine(1);
      const r = await t.call<OpsCustodyCoin[]>('GET', '/ops/api/v1/chain/custody', { token: op.token });
      expect(r.status).toBe(200);
      const btc = r.body.returnData.find((c) => c.coinCode === 'BTC');
      expect(btc).toMatchObject({
        paidOnChain: true,
        hotAddresses: [],
        coldAddress: cold,
        coldBalance: '0.25',
        lastError: null,
      });
      expect(await onNode(cold)).toEqual({ sats: 25_000_000n, outputs: 1 });
    });
  },
);
