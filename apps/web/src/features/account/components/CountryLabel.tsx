import { useTranslation } from 'react-i18next';
import { CountryFlag } from '../../../components/ui/CountryFlag';

/** Flag and country name of a calling code; unknown codes read 'other' (SPEC §3). */
export function CountryLabel({ countryCode }: { countryCode: string }) {
  const { t } = useTranslation();
  const known = ['82', '1', '81'].includes(countryCode);
  return (
    <>
      <CountryFlag countryCode={countryCode} />
      <span>{t(`common:countries.${known ? countryCode : 'other'}`)}</span>
    </>
  );
}
