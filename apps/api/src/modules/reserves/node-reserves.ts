import { type Coin, fromUnits, toUnits } from '@p2p/contract';
import { controlMessage, verifyControl } from '@p2p/reserves';
import type { SignMessageRequest, SignMessageResponse } from '@p2p/signer-protocol';
import type { BalanceReader } from '../../chains/balances.ts';
import { chainUnitsToLedger } from '../../chains/units.ts';
import type { Db } from '../../db/client.ts';
import { addressesHoldingFunds, type KeyedAddress } from './repo-addresses.ts';
import type { ReservesReader, ReservesReading } from './repo-snapshot.ts';
import type { StoredReserveAddress } from './tables.ts';

/** The signer's POST /v1/sign-message (chains/signer-client.ts signMessage). */
export type MessageSigner = (req: SignMessageRequest) => Promise<SignMessageResponse>;

export interface NodeReservesOptions {
  /** The balance reader of each coin with a node (chains/balances.ts createBalanceReaders). */
  balances: Partial<Record<Coin, BalanceReader>>;
  /** The addresses of the platform's own keys per coin: ETH/TRX hot 1/0, XRP platform account 0/0 (BTC none). */
  platform: (coin: Coin) => (KeyedAddress & { role: StoredReserveAddress['role'] })[];
  /** COLD_ADDRESS_<COIN> (key offline: counted, never signed). */
  cold: Partial<Record<Coin, string>>;
  /** The signer, or null when none is configured (addresses are then counted unsigned). */
  sign: MessageSigner | null;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

interface Counted extends StoredReserveAddress {
  path: string | null;
}

function roleOfPath(path: string): StoredReserveAddress['role'] {
  return path.startsWith('1/') ? 'HOT' : 'DEPOSIT';
}

/** The addresses of `coin` to read: the platform's own, those that may hold deposits or change, the cold one. */
async function addressesOf(db: Db, coin: Coin, o: NodeReservesOptions): Promise<Counted[]> {
  const seen = new Map<string, Counted>();
  const add = (address: string, role: StoredReserveAddress['role'], path: string | null) => {
    if (!seen.has(address))
      seen.set(address, { address, role, path, balance: '0', signature: null, scheme: null, message: null });
  };
  for (const p of o.platform(coin)) add(p.address, p.role, p.path);
  for (const a of await addressesHoldingFunds(db, coin)) add(a.address, roleOfPath(a.path), a.path);
  const cold = o.cold[coin];
  if (cold) add(cold, 'COLD', null);
  return [...seen.values()];
}

/**
 * Signs the control message of each address with a key path (the snapshot's root in it), and keeps a signature
 * only when it verifies for that address and message (a signer answering for another key or message is logged
 * and its answer dropped). A signer that fails leaves the address unsigned, never the snapshot untaken.
 */
async function attest(
  coin: Coin,
  counted: Counted[],
  rootHash: string,
  o: NodeReservesOptions,
): Promise<StoredReserveAddress[]> {
  const out: StoredReserveAddress[] = [];
  for (const { path, ...entry } of counted) {
    if (!path || !o.sign) {
      out.push(entry);
      continue;
    }
    const message = controlMessage(coin, entry.address, rootHash);
    try {
      const r = await o.sign({ coin, path, message });
      const claim = { ...r, coinCode: coin, address: entry.address };
      if (await verifyControl(claim, message)) {
        out.push({ ...entry, message, signature: r.signature, scheme: r.scheme });
        continue;
      }
      o.log.error({ coin, address: entry.address, path, signed: r.address }, 'reserves: signature refused');
    } catch (err) {
      o.log.warn(
        { err, coin, address: entry.address },
        'reserves: the signer did not sign a control message',
      );
    }
    out.push(entry);
  }
  return out;
}

/**
 * Reserves from the nodes (DECISIONS §20): for a coin with a node, the balance of each platform address (its own
 * keys, the deposit addresses that may hold unswept coins, the cold address) read at the snapshot, per address,
 * summed in ledger units (each rounded down: wei below 10^-8 ETH are not counted), and each address with a key
 * signed over the snapshot's root at the snapshot (`attest`). A node that fails or answers something refused
 * makes the coin UNAVAILABLE (reserves null, logged), never zero and never the declared figure. A coin without a
 * node answers NONE, so the declared figure (firstKnown) takes over.
 */
export function nodeReserves(db: Db, o: NodeReservesOptions): ReservesReader {
  return async (coin): Promise<ReservesReading> => {
    const reader = o.balances[coin];
    if (!reader) return { source: 'NONE', units: null, addresses: [] };
    let counted: Counted[];
    try {
      counted = await addressesOf(db, coin, o);
      const balances = await reader.balances(counted.map((c) => c.address));
      for (const c of counted) {
        const units = balances.get(c.address);
        if (units === undefined) throw new Error(`the node left out ${c.address}`);
        c.balance = fromUnits(chainUnitsToLedger(coin, units));
      }
    } catch (err) {
      o.log.error({ err, coin }, 'reserves: the node did not answer; reserves UNAVAILABLE in this snapshot');
      return { source: 'UNAVAILABLE', units: null, addresses: [] };
    }
    const units = counted.reduce((sum, c) => sum + toUnits(c.balance), 0n);
    const unsigned = counted.map(({ path: _, ...e }) => e);
    return { source: 'NODE', units, addresses: unsigned, attest: (root) => attest(coin, counted, root, o) };
  };
}
