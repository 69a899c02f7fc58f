import { forwardRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import { TextField } from './TextField';

type Props = Omit<Parameters<typeof TextField>[0], 'type' | 'aside'>;

/**
 * A password input with a show/hide switch beside it (one widget for the password fields of
 * login, signup, password reset, modify, withdraw and release). The switch names what it does in the
 * member's language and says whether the password is shown (aria-pressed); it is not a submit button.
 */
export const PasswordField = forwardRef<HTMLInputElement, Props>(function PasswordField(props, ref) {
  const { t } = useTranslation('common');
  const [shown, setShown] = useState(false);
  return (
    <TextField
      ref={ref}
      {...props}
      type={shown ? 'text' : 'password'}
      aside={
        <Button variant="outline" size="small" aria-pressed={shown} onClick={() => setShown((v) => !v)}>
          {shown ? t('password.hide') : t('password.show')}
        </Button>
      }
    />
  );
});
