/**
 * A labelled native select (a filter, a sort, an account or an asset to choose): the label names
 * it for assistive technology, and the change hands back one of the options' own values, typed.
 */
import { useId } from 'react';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export function Select<V extends string>({
  label,
  value,
  options,
  onChange,
  className = 'field',
  inputClassName = 'select',
}: {
  label: string;
  value: V;
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
  /** The wrapper's class: `field` in a form, `card` for a list's filter. */
  className?: string;
  inputClassName?: string;
}) {
  const id = useId();
  return (
    <div className={className}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select
        id={id}
        className={inputClassName}
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => option.value === event.target.value);
          if (chosen !== undefined) onChange(chosen.value);
        }}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
