import { HDKey } from '@scure/bip32';
import { address as btcAddress, networks, Psbt, payments } from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasLitecoind, type Litecoind, startLitecoind } from '../../api/test/nodes.ts';
import { startSigner, type TestSigner } from '../../api/test/signer.ts';

/*
 * BTC (DECISIONS §18): a PSBT built with bitcoinjs-lib over a real UTXO on Litecoin Core regtest (Bitcoin's
 * transaction format and RPC; a bcrt1 program is paid through its rltc1 spelling), signed by the signer,
 * accepted by sendrawtransaction, paying the recipient exactly, its change recognised as the signer's own.
 */

const REGTEST = networks.regtest;
const LITECOIN_REGTEST = { ...networks.regtest, bech32: 'rltc' };
const ACCOUNT_PATH = "m/84'/1'/0'";

let signer: TestSigner;
let node: Litecoind;
beforeAll(async () => {
  [signer, node] = await Promise.all([startSigner({ env: { CHAIN_NETWORK: 'regtest' } }), startLitecoind()]);
});
afterAll(async () => {
  await Promise.all([signer?.stop(), node?.stop()]);
});

/** The signer's child c/i of the BTC account: public key, P2WPKH script and bip32Derivation entry. */
function child(path: string) {
  const pubkey = HDKey.fromExtendedKey(signer.xpubs.BTC, { public: 0x043587cf, private: 0x04358394 }).derive(
    `m/${path}`,
  ).publicKey;
  if (!pubkey) throw new Error('no public key');
  const pay = payments.p2wpkh({ pubkey, network: REGTEST });
  const masterFingerprint = Buffer.from(signer.accounts.masterFingerprint, 'hex');
  return {
    pubkey,
    script: pay.output!,
    address: pay.address!,
    derivation: { masterFingerprint, pubkey, path: `${ACCOUNT_PATH}/${path}` },
  };
}

describe.skipIf(!hasLitecoind())('BTC PSBT on Litecoin Core regtest', () => {
  it('signs a PSBT over its own UTXO that the node accepts; the recipient gets exactly the amount', async () => {
    const deposit = child('0/0');
    const change = child('1/0');
    const fundTxid = await node.pay(deposit.address, '1');
    await node.mine(1);
    const vout = await node.voutOf(fundTxid, deposit.address);
    const recipient = await node.wallet<string>('getnewaddress', ['', 'bech32']);
    const psbt = new Psbt({ network: REGTEST });
    psbt.addInput({
      hash: fundTxid,
      index: vout,
      witnessUtxo: { script: deposit.script, value: 100_000_000n },
      bip32Derivation: [deposit.derivation],
    });
    psbt.addOutput({ script: btcAddress.toOutputScript(recipient, LITECOIN_REGTEST), value: 30_000_000n });
    psbt.addOutput({ script: change.script, value: 69_990_000n, bip32Derivation: [change.derivation] });
    const signed = await signer.client.sign({
      requestId: 'withdrawal:btc:1',
      coin: 'BTC',
      purpose: 'WITHDRAWAL',
      intent: { psbt: psbt.toBase64() },
    });
    // The change is the signer's own: only the payment and the fee leave.
    expect(signed).toMatchObject({ amount: '0.3', fee: '0.0001' });
    expect(await node.rpc<string>('sendrawtransaction', [signed.signedTx])).toBe(signed.txid);
    await node.mine(1);
    expect(await node.wallet<number>('getreceivedbyaddress', [recipient, 1])).toBe(0.3);
  });

  it('refuses an input that is not its own', async () => {
    const stranger = child('0/1');
    const psbt = new Psbt({ network: REGTEST });
    psbt.addInput({
      hash: '11'.repeat(32),
      index: 0,
      witnessUtxo: { script: stranger.script, value: 100_000n },
      // The right path and key but another seed's fingerprint.
      bip32Derivation: [{ ...stranger.derivation, masterFingerprint: Buffer.from('deadbeef', 'hex') }],
    });
    psbt.addOutput({ script: stranger.script, value: 90_000n });
    await expect(
      signer.client.sign({
        requestId: 'withdrawal:btc:2',
        coin: 'BTC',
        purpose: 'WITHDRAWAL',
        intent: { psbt: psbt.toBase64() },
      }),
    ).rejects.toMatchObject({ code: 'SIGNER_REFUSED', data: { reason: 'SIGNER_INTENT_INVALID' } });
  });
});
