import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { kycDocumentImage } from '../api/kyc';

/**
 * The decrypted ID document of `id`, fetched with the operator's token as a Blob (an <img src> could not
 * carry it) and shown from an object URL, released when closed. The API audits each viewing.
 */
export function KycDocumentImage({ id }: { id: number }) {
  const { t } = useTranslation(['ops']);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let live = true;
    kycDocumentImage(id)
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  if (failed) return <span role="alert">{t('ops:kyc.imageFailed')}</span>;
  if (!url) return <span>{t('ops:kyc.imageLoading')}</span>;
  return (
    <img
      src={url}
      alt={t('ops:kyc.imageAlt', { id })}
      data-testid={`kyc-image-${id}`}
      style={{ maxWidth: '100%', maxHeight: 360, objectFit: 'contain', display: 'block' }}
    />
  );
}
