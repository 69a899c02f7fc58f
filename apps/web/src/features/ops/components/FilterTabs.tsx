import s from '../ops.module.css';

interface Props {
  label: string;
  options: { value: string; label: string }[];
  value: string;
  onChange: (value: string) => void;
}

/** A row of toggle buttons choosing one filter value (e.g. a status). */
export function FilterTabs({ label, options, value, onChange }: Props) {
  return (
    <fieldset className={s.tabs} aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          className={`${s.tab} ${o.value === value ? s.tabActive : ''}`}
          aria-pressed={o.value === value}
          data-testid={`filter-${o.value}`}
          onClick={() => onChange(o.value)}
        >
          {o.label}
        </button>
      ))}
    </fieldset>
  );
}
