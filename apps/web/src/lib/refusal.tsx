import { Link } from 'react-router';
import { paths } from '../config/paths';
import i18n from '../i18n';
import { ApiError } from './api-client';
import { type ErrorScope, errorText } from './errors';
import { notify } from './toast';

/** A step of the verification center (VerificationPage's section ids). */
export type VerificationStep = 'identity' | 'document' | 'bank' | 'holds';

/** Where the member goes to lift a refusal: a route (with the section) and the i18n key of the link. */
export interface RefusalStep {
  to: string;
  labelKey: string;
}

const center = (step: VerificationStep): RefusalStep => ({
  to: `${paths.verification.path}#${step}`,
  labelKey: `common:refusalSteps.${step}`,
});

/**
 * The step that lifts a DECISIONS §19 refusal, or undefined when none does: KYC_REQUIRED {level} -> the
 * identity check (level 1) or the ID document (level 2); an unverified or foreign-named payout account -> the
 * 1원 check; WITHDRAWAL_HELD -> what the hold is and when it ends; BLOCKED -> the block list on /account.
 * TRAVEL_RULE_INFO_REQUIRED is lifted on the withdraw screen itself (its beneficiary step).
 */
export function refusalStep(err: unknown): RefusalStep | undefined {
  if (!(err instanceof ApiError)) return undefined;
  switch (err.code) {
    case 'KYC_REQUIRED':
      return center(err.data.level === 2 ? 'document' : 'identity');
    case 'KYC_DOCUMENT_PENDING':
      return center('document');
    case 'BANK_ACCOUNT_NOT_VERIFIED':
    case 'ACCOUNT_HOLDER_MISMATCH':
      return center('bank');
    case 'WITHDRAWAL_HELD':
      return center('holds');
    case 'BLOCKED':
      return { to: `${paths.account.path}#blocks`, labelKey: 'common:refusalSteps.blocks' };
    default:
      return undefined;
  }
}

/** A refusal's text with the link to the step that lifts it (closing the toast when followed). */
function RefusalToast({ text, step }: { text: string; step: RefusalStep }) {
  return (
    <span>
      {text}{' '}
      <Link to={step.to} data-testid="refusal-step" style={{ fontWeight: 700, textDecoration: 'underline' }}>
        {i18n.t(step.labelKey)}
      </Link>
    </span>
  );
}

/**
 * Shows a failed call as a toast (SPEC §8): its localized text (errorText) and, for a DECISIONS §19 refusal,
 * the link to the step that lifts it.
 */
export function notifyRefusal(err: unknown, fallbackKey: string, scope: ErrorScope = 'member'): void {
  const text = errorText(err, fallbackKey, scope);
  const step = refusalStep(err);
  if (step) notify.node(<RefusalToast text={text} step={step} />, 'error');
  else notify.error(text);
}
