import { fromUnits } from '@p2p/contract/money.ts';
import type { CoinReserves, ReserveProofView } from '@p2p/contract/proof-of-reserves.ts';
import { controlMessage, type VerifyResult, verifyControl, verifyProof } from '@p2p/reserves';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Page } from '../../components/layout/Page';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { KeyValue, KeyValueList } from '../../components/ui/KeyValue';
import { LoadError } from '../../components/ui/LoadError';
import { SkeletonCard } from '../../components/ui/Skeleton';
import { ApiError } from '../../lib/api-client';
import { formatDateTime } from '../../lib/format-time';
import { useSession } from '../../lib/session';
import { fetchProof, reservesQueryOptions } from './api';
import s from './reserves.module.css';

/**
 * /reserves "자산 증명" (DECISIONS §20): per coin the newest snapshot's liabilities, reserves and ratio, and for a
 * signed-in member "내 잔고 포함 확인": the member's proof fetched and verified here in the browser with the
 * same package the offline command uses, its path shown step by step, and the proof JSON to download.
 */
export default function ReservesPage() {
  const { t } = useTranslation('reserves');
  const q = useQuery(reservesQueryOptions());
  const signedIn = useSession((st) => Boolean(st.accessToken));
  return (
    <Page title={t('title')}>
      <p className={s.intro}>{t('intro')}</p>
      {q.isPending && <SkeletonCard rows={4} />}
      {q.isError && <LoadError message={t('loadFailed')} onRetry={() => void q.refetch()} />}
      {q.data?.length === 0 && <p className={s.empty}>{t('none')}</p>}
      {q.data?.map((c) => (
        <CoinCard key={c.coinCode} coin={c} signedIn={signedIn} />
      ))}
      {q.data && q.data.length > 0 && !signedIn && <p className={s.empty}>{t('signInToCheck')}</p>}
    </Page>
  );
}

function CoinCard({ coin, signedIn }: { coin: CoinReserves; signedIn: boolean }) {
  const { t } = useTranslation('reserves');
  // below 100% when the whole-percent part is under 100 (exact: the ratio is a decimal string, never a float)
  const low = coin.ratioPct !== null && BigInt(coin.ratioPct.split('.')[0] ?? '0') < 100n;
  return (
    <Card className={s.coin} data-testid={`reserves-${coin.coinCode}`}>
      <div className={s.coinHead}>
        <h2 className={s.coinTitle}>{t(`common:coins.${coin.coinCode}`)}</h2>
        <span className={`${s.ratio} ${low ? s.ratioLow : s.ratioOk}`} data-testid="reserves-ratio">
          {coin.ratioPct === null ? '—' : `${coin.ratioPct}%`}
        </span>
      </div>
      <KeyValueList>
        <KeyValue label={t('liabilities')} testId="reserves-liabilities">
          {coin.liabilities} {coin.coinCode}
        </KeyValue>
        <KeyValue label={t('reserves')} testId="reserves-reserves">
          {coin.reserves === null ? t('unknown') : `${coin.reserves} ${coin.coinCode}`}
        </KeyValue>
        <KeyValue label={t('members')}>{coin.memberCount.toLocaleString()}</KeyValue>
        <KeyValue label={t('snapshotAt')}>{formatDateTime(coin.snapshotAt)}</KeyValue>
        <KeyValue label={t('root')}>
          <span className={s.mono}>{coin.rootHash}</span>
        </KeyValue>
      </KeyValueList>
      <SourceBadge source={coin.reservesSource} />
      {coin.addresses.length > 0 && <Addresses coin={coin} />}
      {signedIn && <MyInclusion coinCode={coin.coinCode} />}
    </Card>
  );
}

/** Where the reserves figure comes from (DECISIONS §20): read from a node, declared, or the node failed. */
function SourceBadge({ source }: { source: CoinReserves['reservesSource'] }) {
  const { t } = useTranslation('reserves');
  if (source === 'NONE') return null;
  const tone = source === 'NODE' ? s.sourceNode : source === 'DECLARED' ? s.declared : s.sourceDown;
  return (
    <span className={`${s.badge} ${tone}`} data-testid="reserves-source" data-source={source}>
      {t(`source.${source}`)}
    </span>
  );
}

/** Each signature checked here with the same package as the command; false when absent or wrong. */
function useControlChecks(coin: CoinReserves) {
  return useQuery({
    queryKey: ['reserves-control', coin.coinCode, coin.rootHash],
    queryFn: () =>
      Promise.all(
        coin.addresses.map((a) =>
          verifyControl(
            { coinCode: coin.coinCode, ...a },
            controlMessage(coin.coinCode, a.address, coin.rootHash),
          ),
        ),
      ),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The platform's addresses counted in the reserves, each with its balance and its control signature's check. */
function Addresses({ coin }: { coin: CoinReserves }) {
  const { t } = useTranslation('reserves');
  const checks = useControlChecks(coin);
  const verified = checks.data?.filter(Boolean).length ?? 0;
  return (
    <details className={s.addresses} data-testid="reserves-addresses">
      <summary className={s.addressesSummary}>
        {t('addresses', { count: coin.addresses.length, verified })}
      </summary>
      <ul className={s.addressList}>
        {coin.addresses.map((a, i) => {
          const ok = checks.data?.[i];
          const mark =
            ok === undefined ? 'checking' : ok ? 'verified' : a.signature === null ? 'unsigned' : 'invalid';
          return (
            <li key={a.address} className={s.addressItem} data-testid="reserves-address" data-mark={mark}>
              <div className={s.addressHead}>
                <span>{t(`role.${a.role}`)}</span>
                <span className={s.addressBalance}>
                  {a.balance} {coin.coinCode}
                </span>
              </div>
              <div className={s.mono}>{a.address}</div>
              <span className={`${s.mark} ${s[`mark_${mark}`] ?? ''}`}>
                {t(`mark.${mark === 'unsigned' && a.role === 'COLD' ? 'coldOffline' : mark}`)}
              </span>
            </li>
          );
        })}
      </ul>
    </details>
  );
}

type Check =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; proof: ReserveProofView; result: VerifyResult }
  | { kind: 'absent' }
  | { kind: 'failed' };

/** "내 잔고 포함 확인": fetches the proof, verifies it locally and shows the climb from the leaf to the root. */
function MyInclusion({ coinCode }: { coinCode: string }) {
  const { t } = useTranslation('reserves');
  const [check, setCheck] = useState<Check>({ kind: 'idle' });
  const run = async () => {
    setCheck({ kind: 'busy' });
    try {
      const proof = await fetchProof(coinCode);
      setCheck({ kind: 'done', proof, result: verifyProof(proof) });
    } catch (err) {
      setCheck(err instanceof ApiError && err.status === 404 ? { kind: 'absent' } : { kind: 'failed' });
    }
  };
  return (
    <div className={s.actions}>
      <Button
        block
        variant="secondary"
        onClick={() => void run()}
        disabled={check.kind === 'busy'}
        data-testid="reserves-check"
      >
        {check.kind === 'busy' ? t('checking') : t('check')}
      </Button>
      {check.kind === 'absent' && <p className={s.empty}>{t('absent')}</p>}
      {check.kind === 'failed' && <p className={`${s.result} ${s.resultBad}`}>{t('fetchFailed')}</p>}
      {check.kind === 'done' && <CheckResult proof={check.proof} result={check.result} />}
    </div>
  );
}

function CheckResult({ proof, result }: { proof: ReserveProofView; result: VerifyResult }) {
  const { t } = useTranslation('reserves');
  const balance = `${fromUnits(BigInt(proof.leaf.balance))} ${proof.coinCode}`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `proof-${proof.coinCode}-${proof.snapshotAt.slice(0, 10)}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <>
      <div
        className={`${s.result} ${result.ok ? s.resultOk : s.resultBad}`}
        data-testid="reserves-result"
        role="status"
      >
        {result.ok ? t('verified', { balance }) : t('notVerified', { reason: result.reason })}
        <ol className={s.steps} data-testid="reserves-path">
          {result.steps.map((st) => (
            <li key={st.level}>
              {t('step', { level: st.level + 1, side: t(`side.${st.siblingSide}`), sum: st.siblingSum })}
              <div className={s.mono}>{st.hash}</div>
            </li>
          ))}
        </ol>
      </div>
      <Button block variant="outline" onClick={download} data-testid="reserves-download">
        {t('download')}
      </Button>
    </>
  );
}
