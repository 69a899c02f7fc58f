import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../components/layout/Page';
import { paths } from '../../config/paths';

export default function HomePage() {
  const { t } = useTranslation();
  return (
    <Page variant="main">
      <Link to={paths.transaction.path}>{t('common:routes.transaction')}</Link>
    </Page>
  );
}
