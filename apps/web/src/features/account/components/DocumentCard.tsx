import { KYC_DOC_MAX_BYTES, type KycStatus } from '@p2p/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Card } from '../../../components/ui/Card';
import s from '../account.module.css';
import { uploadKycDocument } from '../api/kyc';
import { useKycRun } from '../hooks/use-kyc-run';

/**
 * Level 2 (DECISIONS §19): a photo of an ID document (JPEG or PNG, 10 MB) for an operator's review. Shows
 * the newest document's state: waiting, rejected with the operator's reason (upload again), or approved.
 * Needs level 1 first; the server says so too (KYC_REQUIRED).
 */
export function DocumentCard({ kyc }: { kyc: KycStatus }) {
  const { t } = useTranslation('account');
  const [file, setFile] = useState<File | null>(null);
  const { busy, run } = useKycRun();
  const doc = kyc.document;
  if (kyc.level >= 2)
    return (
      <Card data-testid="kyc-document">
        <p data-testid="kyc-document-status">{t('verification.document.approved')}</p>
      </Card>
    );
  if (kyc.level < 1)
    return (
      <Card data-testid="kyc-document">
        <p className={s.muted}>{t('verification.document.needsLevel1')}</p>
      </Card>
    );
  const pending = doc?.status === 'PENDING';
  const tooBig = file !== null && file.size > KYC_DOC_MAX_BYTES;
  return (
    <Card className={s.rows} data-testid="kyc-document">
      <p data-testid="kyc-document-status">
        {pending
          ? t('verification.document.pending')
          : doc?.status === 'REJECTED'
            ? t('verification.document.rejected', { reason: doc.reason ?? '' })
            : t('verification.document.intro')}
      </p>
      {pending ? null : (
        <>
          <label className={s.fileLabel}>
            <span>{t('verification.document.choose')}</span>
            <input
              type="file"
              accept="image/jpeg,image/png"
              onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
              data-testid="kyc-document-file"
            />
          </label>
          {tooBig ? (
            <p role="alert" className={s.error}>
              {t('verification.document.tooBig')}
            </p>
          ) : null}
          <Button
            block
            disabled={busy || file === null || tooBig}
            onClick={() =>
              file && void run(() => uploadKycDocument(file), t('verification.document.uploaded'))
            }
            data-testid="kyc-document-upload"
          >
            {t('verification.document.upload')}
          </Button>
        </>
      )}
    </Card>
  );
}
