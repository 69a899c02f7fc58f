import w from './widgets.module.css';

interface Props<V extends string> {
  value: V;
  /** `disabled`: shown but not choosable (the reason is said next to the control by its screen). */
  options: { value: V; label: string; disabled?: boolean }[];
  onChange: (v: V) => void;
  label: string;
  testId?: string;
}

/** A row of mutually exclusive choices (coin tabs, destination type) with 44 px targets. */
export function SegmentedControl<V extends string>({ value, options, onChange, label, testId }: Props<V>) {
  return (
    <fieldset className={w.segmented} aria-label={label} data-testid={testId}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          disabled={o.disabled}
          className={`${w.segment} ${value === o.value ? w.segmentActive : ''}`}
          onClick={() => onChange(o.value)}
          data-testid={testId ? `${testId}-${o.value}` : undefined}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}
