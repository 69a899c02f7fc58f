import type { Coin } from '@p2p/contract';
import type { ChainNetwork } from './adapter.ts';

/**
 * The account-level public keys of the public TEST seed (apps/signer/test/fixtures/test-seed.hex), per network
 * (BTC's coin type differs on testnet; regtest uses testnet's). Tests pass them as XPUB_<COIN> and start the real
 * signer on that seed (apps/api/test/signer.ts), so what the API derives the signer can spend. An API started
 * outside production with neither XPUB_<COIN> nor a signer's accounts.json uses them too, with a warning: their
 * private side is public, so nothing of value may ever be sent to them. apps/signer's keys.test.ts proves the seed
 * derives exactly these.
 */
export const TEST_ACCOUNT_KEYS: Record<'mainnet' | 'testnet', Record<Coin, string>> = {
  mainnet: {
    BTC: 'xpub6BsbdymAa1RifVXdtY89xQ4xu78MpCJ22HeYyMXvG3TE5cYpFw1hQXDkctkeG5cmg6v2VPPY4xjVVsZHFoGkuiSwXDgcZ23KE6Yjqs1i9br',
    ETH: 'xpub6CP5nKcnjSVopdtb4UGjr9fTbLjSCF4DMCrt44w1pixVgDWBuwcmeNPsy9ob2eagzMb9mpa4rzjHcTharLN42UCNyFBQevTAy5T2bN3E4xP',
    XRP: 'xpub6CaAbenErZgeezAk2LSjD68AotSBh7Sar9Tz5kgP68vN677eWuZfPCZy1rSAYJa8wXePuEeMBLk14hTQPmvdiB24jvC72x9poMo2QXZ7BgH',
    TRX: 'xpub6C9U3sgqT6kJSxmieisbaX6qtpoojAYBv7KJ9DLQeLdXriV7gy2BuacQaPGyGCSeojn6QTmqdAvBEHgBgpXzQUTJT3Qdw3hiekcR3pTqfqk',
  },
  testnet: {
    BTC: 'tpubDDkNperhThmk3a8nbxQqyLggem3Q2S6o5ZUjezXJ8fdkuhwQHBVkJ6oaQ6ak8vnsTZ7MTbXkSmEyiJiXuarAvJNa59QR6L4juWP9xoj8N8v',
    ETH: 'tpubDCkiJZSUSiTG6S5SWfFq44zpvTq6BdZGtqTBQczAAdiPRWAtzATrnp4iDBtNZ9XvnG84PQ5wQ6ZLJeCCFCDHuueg2qviLT7QZ33SMLaC9N5',
    XRP: 'tpubDCwo7tbvZqe6vnMbUXRpR1TY91XqgVwePn4HSJjXS3gFqPnMb8QkXeEoFtWx4oXNjSBJWpADiSa3ksx1ndmsbcUMoWwQiUp4PKPSAYcS6ov',
    TRX: 'tpubDCX6a7WXANhkikxa6urgnSSDDwuTiZ3FTjubVmPYzFPRc19pmBsH42HEpRMknhPtbeK123HiAGkDvUAo5gPEHuubWe9wcaMxEiCposZbAjT',
  },
};

/** The TEST keys of `network` as XPUB_<COIN> variables. */
export function testXpubEnv(network: ChainNetwork = 'mainnet'): Record<`XPUB_${Coin}`, string> {
  const keys = TEST_ACCOUNT_KEYS[network === 'mainnet' ? 'mainnet' : 'testnet'];
  return { XPUB_BTC: keys.BTC, XPUB_ETH: keys.ETH, XPUB_XRP: keys.XRP, XPUB_TRX: keys.TRX };
}
