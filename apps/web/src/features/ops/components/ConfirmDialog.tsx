import { opsReasonField, txidField } from '@p2p/contract';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';
import ui from '../../../components/ui/ui.module.css';
import { errorText, fieldText } from '../../../lib/errors';
import { notify } from '../../../lib/toast';
import { opsQueryRoot } from '../api/query-root';
import s from '../ops.module.css';

/** An input the operator fills before confirming: a reason (required or optional) or a chain TxID. */
export interface ActionField {
  name: string;
  kind: 'reason' | 'optionalReason' | 'txid';
  label: string;
}

/** An operator action waiting for confirmation (DECISIONS §8: every action is confirmed and audited). */
export interface PendingAction {
  title: string;
  /** The target's key facts, so the operator sees what the action touches. */
  details: { label: string; value: ReactNode }[];
  /** What will happen, in words (e.g. where refunded coins go). */
  note?: string;
  /** Something about the target the operator must check first, shown in red above its facts. */
  warning?: string;
  confirmLabel: string;
  tone: 'primary' | 'danger';
  fields?: ActionField[];
  /** Performs the call with the trimmed field values; resolves to the success toast text. Throws ApiError. */
  run: (values: Record<string, string>) => Promise<string>;
}

/** The field code of a value that breaks the API's rule for it, or undefined when it is valid. */
function fieldError(kind: ActionField['kind'], value: string): string | undefined {
  if (kind === 'optionalReason' && !value.trim()) return undefined;
  const r = (kind === 'txid' ? txidField : opsReasonField).safeParse(value);
  return r.success ? undefined : r.error.issues[0]?.message;
}

/**
 * The confirmation modal of every console action: shows the target, collects the reason or TxID (checked
 * with the API's own field rules), runs the call, then toasts the outcome and refreshes the console's lists.
 * On failure it stays open with the error.
 */
export function ConfirmDialog({ action, onDone }: { action: PendingAction; onDone: () => void }) {
  const { t } = useTranslation(['ops', 'common']);
  const queryClient = useQueryClient();
  const formId = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const found = Object.fromEntries(
      (action.fields ?? []).map((f) => [f.name, fieldError(f.kind, values[f.name] ?? '')]),
    );
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()]));
    setPending(true);
    setFailure(null);
    try {
      const message = await action.run(trimmed);
      notify.success(message);
      // every console query: the ledger check is the job's stored result now (one row)
      await queryClient.invalidateQueries({ queryKey: opsQueryRoot });
      onDone();
    } catch (err) {
      const text = errorText(err, 'ops:errors.generic', 'ops');
      setFailure(text);
      notify.error(text);
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal
      open
      title={action.title}
      onClose={onDone}
      closeMs={200}
      footer={(close) => (
        <div className={s.dialogButtons}>
          <Button variant="outline" onClick={close} disabled={pending} data-testid="confirm-cancel">
            {t('common:actions.cancel')}
          </Button>
          <Button
            type="submit"
            form={formId}
            className={action.tone === 'danger' ? s.dangerButton : undefined}
            disabled={pending}
            data-testid="confirm-submit"
          >
            {pending ? t('ops:actions.working') : action.confirmLabel}
          </Button>
        </div>
      )}
    >
      <form id={formId} className={s.dialogForm} onSubmit={submit} noValidate data-testid="confirm-dialog">
        {action.warning && (
          <p className={s.dialogWarning} role="alert" data-testid="confirm-warning">
            {action.warning}
          </p>
        )}
        <dl className={s.facts}>
          {action.details.map((d) => (
            <div key={d.label} className={s.fact}>
              <dt>{d.label}</dt>
              <dd>{d.value}</dd>
            </div>
          ))}
        </dl>
        {action.note && <p className={s.note}>{action.note}</p>}
        {(action.fields ?? []).map((f) => (
          <ActionInput
            key={f.name}
            field={f}
            value={values[f.name] ?? ''}
            error={fieldText(errors[f.name], 'ops')}
            onChange={(v) => {
              setValues((old) => ({ ...old, [f.name]: v }));
              setErrors((old) => ({ ...old, [f.name]: undefined }));
            }}
          />
        ))}
        {failure && (
          <p className={s.failure} role="alert">
            {failure}
          </p>
        )}
      </form>
    </Modal>
  );
}

function ActionInput(props: {
  field: ActionField;
  value: string;
  error: string | undefined;
  onChange: (v: string) => void;
}) {
  const { field, value, error, onChange } = props;
  const id = useId();
  const common = {
    id,
    name: field.name,
    value,
    'aria-invalid': error ? true : undefined,
    'data-testid': `confirm-${field.name}`,
  };
  return (
    <div className={ui.field}>
      <label className={ui.label} htmlFor={id}>
        {field.label}
      </label>
      {field.kind === 'txid' ? (
        <input
          {...common}
          className={`${ui.input} ${s.mono} ${error ? ui.inputError : ''}`}
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <textarea
          {...common}
          rows={3}
          className={`${ui.input} ${s.textarea} ${error ? ui.inputError : ''}`}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <div className={`${ui.message} ${error ? ui.messageError : ''}`} role={error ? 'alert' : undefined}>
        {error}
      </div>
    </div>
  );
}
