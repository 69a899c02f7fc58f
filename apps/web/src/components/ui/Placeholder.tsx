import { useTranslation } from 'react-i18next';
import { Page } from '../layout/Page';
import { Card } from './Card';

/** A screen not built yet (issue 5 replaces these). */
export function PlaceholderPage({ titleKey, close }: { titleKey: string; close?: boolean }) {
  const { t } = useTranslation();
  return (
    <Page title={t(titleKey)} close={close}>
      <Card data-testid="placeholder">{t('common:placeholder')}</Card>
    </Page>
  );
}
