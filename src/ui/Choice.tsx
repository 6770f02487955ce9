/** A choice of one of two or more values as radio buttons in a fieldset with its legend. */
export function Choice<V extends string>({
  legend,
  name,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  options: readonly { value: V; label: string }[];
  value: V;
  onChange: (value: V) => void;
}) {
  return (
    <fieldset className="choices">
      <legend className="choices__legend">{legend}</legend>
      <div className="choices__options">
        {options.map((option) => (
          <label key={option.value} className="choices__option">
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
            />
            <span className="choices__name">{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
