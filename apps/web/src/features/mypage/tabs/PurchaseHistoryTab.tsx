import { useTranslation } from 'react-i18next';
import { Card } from '../../../components/ui/Card';

/** /myinfo tab slot (SPEC §2); its list comes with issue 5. */
export function PurchaseHistoryTab() {
  const { t } = useTranslation();
  return <Card data-testid="tab-placeholder">{t('common:placeholder')}</Card>;
}
