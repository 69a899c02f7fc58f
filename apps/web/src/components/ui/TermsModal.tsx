import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { Modal } from './Modal';

export type LegalDoc = 'terms' | 'privacy';

/** The service terms or the privacy policy in a 300 ms bottom sheet with scroll lock (SPEC §2). */
export function TermsModal({ doc, onClose }: { doc: LegalDoc | null; onClose: () => void }) {
  const { t } = useTranslation('legal');
  return (
    <Modal
      open={doc !== null}
      title={doc ? t(`${doc}.title`) : ''}
      onClose={onClose}
      closeMs={300}
      footer={(close) => (
        <Button block onClick={close}>
          {t('common:actions.confirm')}
        </Button>
      )}
    >
      {doc && <div data-testid={`legal-${doc}`}>{t(`${doc}.body`)}</div>}
    </Modal>
  );
}
