/**
 * The two ways to pick an image: take a photo (the camera, where the device has one) and choose
 * one from the library. Each is a visible label around its hidden file input, so both are named.
 */

/** A photo picker and a library picker; `onChoose` gets the file picked (if any) and its input. */
export function ImagePickers({
  className,
  takeLabel,
  chooseLabel,
  describedBy,
  onChoose,
}: {
  /** The class of each label (it looks like a button). */
  className: string;
  takeLabel: string;
  chooseLabel: string;
  describedBy?: string | undefined;
  onChoose: (file: File | undefined, input: HTMLInputElement) => void;
}) {
  const pickers = [
    { label: takeLabel, capture: 'environment' as const },
    { label: chooseLabel, capture: undefined },
  ];
  return (
    <>
      {pickers.map(({ label, capture }) => (
        <label key={label} className={className}>
          <input
            className="visually-hidden"
            type="file"
            accept="image/*"
            capture={capture}
            aria-describedby={describedBy}
            onChange={(event) => onChoose(event.target.files?.[0], event.target)}
          />
          {label}
        </label>
      ))}
    </>
  );
}
