import { createHash, randomBytes } from 'node:crypto';
import type { Coin } from '@p2p/contract';
import {
  type ChainBlock,
  ChainNodeError,
  type ChainPayment,
  type ChainReader,
} from '../src/chains/reader.ts';

/** A payment to put in a block: the txid defaults to a fresh random one, the output index to 0. */
export interface FakePayment {
  to: string;
  amount: bigint;
  txid?: string;
  outputIndex?: number;
  destinationTag?: number | null;
}

/** How the node behaves on the next calls: answer, fail, never answer, or answer nonsense. */
export type NodeMode = 'ok' | 'throw' | 'hang' | 'garbage';

/** A random transaction id of `coin`'s spelling (0x-prefixed for ETH). */
export function randomTxid(coin: Coin): string {
  const hex = randomBytes(32).toString('hex');
  return coin === 'ETH' ? `0x${hex}` : coin === 'XRP' ? hex.toUpperCase() : hex;
}

/**
 * An in-memory chain behind the ChainReader interface (the deposit watcher's tests): blocks from height 0 with
 * hashes chained by their parents, `mine` adds one on top, `reorg` replaces everything above a height with other
 * blocks (a fork), and `mode` makes the node fail, hang or lie. Calls are counted.
 */
export class FakeChain implements ChainReader {
  blocks: ChainBlock[] = [];
  mode: NodeMode = 'ok';
  calls = 0;
  private salt = randomBytes(8).toString('hex');

  constructor(
    readonly coin: Coin,
    genesisPayments: FakePayment[] = [],
  ) {
    this.push(genesisPayments);
  }

  get tip(): number {
    return this.blocks.length - 1;
  }

  /** Adds one block on top with these payments; answers it. */
  mine(payments: FakePayment[] = []): ChainBlock {
    return this.push(payments);
  }

  /** Adds `n` empty blocks. */
  mineEmpty(n: number): void {
    for (let i = 0; i < n; i++) this.push([]);
  }

  /** Drops every block above `forkHeight` (they leave the chain) and mines `replacements` in their place. */
  reorg(forkHeight: number, replacements: FakePayment[][] = []): void {
    this.blocks = this.blocks.slice(0, forkHeight + 1);
    this.salt = randomBytes(8).toString('hex');
    for (const p of replacements) this.push(p);
  }

  /** Every payment of the blocks at heights from..to. */
  paymentsIn(from = 0, to = this.tip): { height: number; payment: ChainPayment }[] {
    return this.blocks
      .slice(from, to + 1)
      .flatMap((b) => b.payments.map((payment) => ({ height: b.height, payment })));
  }

  private push(payments: FakePayment[]): ChainBlock {
    const height = this.blocks.length;
    const parentHash = this.blocks[height - 1]?.hash ?? '0'.repeat(64);
    const hash = createHash('sha256').update(`${parentHash}:${height}:${this.salt}`).digest('hex');
    const block: ChainBlock = {
      height,
      hash,
      parentHash,
      payments: payments.map((p) => ({
        txid: p.txid ?? randomTxid(this.coin),
        outputIndex: p.outputIndex ?? 0,
        to: p.to,
        destinationTag: p.destinationTag ?? null,
        amount: p.amount,
      })),
    };
    this.blocks.push(block);
    return block;
  }

  private async answer<T>(value: () => T): Promise<T> {
    this.calls++;
    if (this.mode === 'throw')
      throw new ChainNodeError(this.coin, 'connect ECONNREFUSED http://user:secret@node');
    if (this.mode === 'hang') return new Promise<T>(() => undefined);
    return value();
  }

  tipHeight(): Promise<number> {
    return this.answer(() => (this.mode === 'garbage' ? (Number.NaN as number) : this.tip));
  }

  blockHash(height: number): Promise<string | null> {
    return this.answer(() => {
      if (this.mode === 'garbage') return 'not a hash';
      return this.blocks[height]?.hash ?? null;
    });
  }

  block(height: number): Promise<ChainBlock> {
    return this.answer(() => {
      const b = this.blocks[height];
      if (!b) throw new ChainNodeError(this.coin, `no block ${height}`);
      if (this.mode === 'garbage')
        return { ...b, hash: 'zz', payments: [{ nonsense: true }] } as unknown as ChainBlock;
      // A copy: the watcher must not be able to change the chain it reads.
      return structuredClone(b);
    });
  }
}
