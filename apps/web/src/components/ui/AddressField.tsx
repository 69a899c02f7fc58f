import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { QrScannerModal } from './QrScannerModal';
import { TextField } from './TextField';

interface Props {
  label: string;
  value: string;
  placeholder?: string;
  error?: string;
  /** Typed or scanned: the field reports both the same way. */
  onChange: (address: string) => void;
  /** data-testid of the input and of the scan button. */
  testId: string;
  scanTestId: string;
}

/**
 * A coin address typed or read from a QR code (SPEC §2 /purchase personal wallet, /withdraw): the field,
 * the QR 스캔 button beside it and the scanner sheet it opens (one widget for both screens). No
 * autocomplete or spell check: an address is copied, never guessed.
 */
export function AddressField({ label, value, placeholder, error, onChange, testId, scanTestId }: Props) {
  const { t } = useTranslation('trade');
  const [scanning, setScanning] = useState(false);
  return (
    <>
      <TextField
        label={label}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => onChange(e.target.value)}
        error={error}
        aside={
          <Button variant="outline" size="small" onClick={() => setScanning(true)} data-testid={scanTestId}>
            {t('purchase.scan')}
          </Button>
        }
        data-testid={testId}
      />
      <QrScannerModal open={scanning} onClose={() => setScanning(false)} onScan={onChange} />
    </>
  );
}
