/** A choice of one of two or more values as radio buttons in a fieldset with its legend. */
import type { ReactNode } from 'react';

export interface ChoiceOption<V extends string> {
  value: V;
  label: string;
  /** Shown after the label (a network's name, a balance). */
  note?: ReactNode;
  disabled?: boolean;
}

export function Choice<V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
  className = 'choices',
  optionsClassName = 'choices__options',
}: {
  legend: string;
  name: string;
  options: readonly ChoiceOption<V>[];
  value: V;
  onChange: (value: V) => void;
  /** The fieldset's classes (`choices` and any more). */
  className?: string;
  optionsClassName?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="choices__legend">{legend}</legend>
      <div className={optionsClassName}>
        {options.map((option) => (
          <label key={option.value} className="choices__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
            />
            <span className="choices__name">{option.label}</span>
            {option.note}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
