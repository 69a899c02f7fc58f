import { JP, KR, US } from 'country-flag-icons/react/3x2';

const FLAGS = { '82': KR, '81': JP, '1': US } as const;

/** The flag of a calling code (82 Korea, 81 Japan, 1 US); other codes show a neutral globe. */
export function CountryFlag({ countryCode, width = 20 }: { countryCode: string; width?: number }) {
  const Flag = FLAGS[countryCode as keyof typeof FLAGS];
  const height = Math.round((width * 2) / 3);
  if (!Flag) {
    return (
      <svg width={width} height={height} viewBox="0 0 24 16" aria-hidden="true">
        <rect width="24" height="16" rx="2" fill="#d0d5dd" />
      </svg>
    );
  }
  return <Flag width={width} height={height} aria-hidden="true" style={{ borderRadius: 2, flex: 'none' }} />;
}
