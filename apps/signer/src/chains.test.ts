import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { AccountsResponse } from '@p2p/signer-protocol';
import { utils as tron } from 'tronweb';
import { getAddress, parseEther, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decode, hashes, verifySignature } from 'xrpl';
import { type Anvil, startAnvil } from '../../api/test/nodes.ts';
import { startSigner, type TestSigner } from '../../api/test/signer.ts';

/*
 * Transactions the signer signs are the chain's own (DECISIONS §18): an ETH transfer a real Anvil accepts and
 * that pays exactly; XRP and TRX signatures checked with the chains' libraries (no node of them runs here).
 */

let signer: TestSigner;
const account = (coin: string): AccountsResponse['accounts'][number] => {
  const a = signer.accounts.accounts.find((x) => x.coin === coin);
  if (!a) throw new Error(`no ${coin} account`);
  return a;
};
beforeAll(async () => {
  signer = await startSigner();
});
afterAll(async () => {
  await signer?.stop();
});

describe('ETH on Anvil', () => {
  let anvil: Anvil;
  beforeAll(async () => {
    anvil = await startAnvil();
  });
  afterAll(async () => {
    await anvil?.stop();
  });

  it('signs an EIP-1559 transfer from the hot address that the node accepts and that pays exactly', async () => {
    const hot = getAddress(account('ETH').hotAddress ?? '');
    await anvil.pay(hot, parseEther('2'));
    const to = anvil.accounts[5] as `0x${string}`;
    const before = await anvil.client.getBalance({ address: to });
    const signed = await signer.client.sign({
      requestId: 'withdrawal:eth:1',
      coin: 'ETH',
      purpose: 'WITHDRAWAL',
      intent: {
        fromPath: '1/0',
        to,
        valueWei: parseEther('0.25').toString(),
        nonce: await anvil.client.getTransactionCount({ address: hot }),
        gas: '21000',
        maxFeePerGas: parseGwei('20').toString(),
        maxPriorityFeePerGas: parseGwei('1').toString(),
        chainId: 31337,
      },
    });
    expect(signed.amount).toBe('0.25');
    const hash = await anvil.client.sendRawTransaction({
      serializedTransaction: signed.signedTx as `0x${string}`,
    });
    expect(hash).toBe(signed.txid);
    const receipt = await anvil.client.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    expect(getAddress(receipt.from)).toBe(hot);
    expect((await anvil.client.getBalance({ address: to })) - before).toBe(parseEther('0.25'));
  });
});

describe('XRP', () => {
  it('signs a Payment whose signature xrpl verifies, from the platform account, with the destination tag', async () => {
    const signed = await signer.client.sign({
      requestId: 'withdrawal:xrp:1',
      coin: 'XRP',
      purpose: 'WITHDRAWAL',
      intent: {
        fromPath: '0/0',
        destination: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
        destinationTag: 4_294_967_295,
        amountDrops: '25000000',
        sequence: 7,
        feeDrops: '12',
        lastLedgerSequence: 1000,
      },
    });
    expect(verifySignature(signed.signedTx)).toBe(true);
    expect(hashes.hashSignedTx(signed.signedTx)).toBe(signed.txid);
    const tx = decode(signed.signedTx) as Record<string, unknown>;
    expect(tx).toMatchObject({
      TransactionType: 'Payment',
      Account: account('XRP').xrpAccount,
      Destination: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
      DestinationTag: 4_294_967_295,
      Amount: '25000000',
      Fee: '12',
      Sequence: 7,
    });
    expect(signed).toMatchObject({ amount: '25', fee: '0.000012' });
  });
});

describe('TRX', () => {
  it('signs a TransferContract: txID = sha256(raw_data), the signature recovers the hot address', async () => {
    const to = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
    const signed = await signer.client.sign({
      requestId: 'withdrawal:trx:1',
      coin: 'TRX',
      purpose: 'WITHDRAWAL',
      intent: {
        fromPath: '1/0',
        to,
        amountSun: '1500000',
        refBlockBytes: 'abcd',
        refBlockHash: '0011223344556677',
        expiration: 1_700_000_060_000,
        timestamp: 1_700_000_000_000,
      },
    });
    const tx = JSON.parse(signed.signedTx) as { txID: string; raw_data_hex: string; signature: string[] };
    expect(tx.txID).toBe(signed.txid);
    expect(Buffer.from(sha256(Buffer.from(tx.raw_data_hex, 'hex'))).toString('hex')).toBe(tx.txID);
    const sig = Buffer.from(tx.signature[0] ?? '', 'hex');
    const recovered = secp256k1.Signature.fromBytes(sig.subarray(0, 64), 'compact')
      .addRecoveryBit((sig[64] ?? 0) - 27)
      .recoverPublicKey(Buffer.from(tx.txID, 'hex'))
      .toBytes(false);
    const id = keccak_256(recovered.subarray(1)).subarray(12);
    expect(tron.crypto.getBase58CheckAddress([0x41, ...id])).toBe(account('TRX').hotAddress);
    const raw = tron.deserializeTx.deserializeTransaction('TransferContract', tx.raw_data_hex);
    expect(raw.contract[0]?.parameter.value).toMatchObject({ amount: 1_500_000 });
    expect(tron.address.fromHex(String(raw.contract[0]?.parameter.value.to_address))).toBe(to);
    expect(signed.amount).toBe('1.5');
  });
});
