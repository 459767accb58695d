/** A text input wrapped in its label, as the filter and add-a-rule forms lay them out. */
export interface FilterFieldProps {
  /** The visible label, which is also the input's accessible name. */
  label: string;
  /** Used as both the element id and its data-testid, which the views keep equal. */
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  required?: boolean;
}

/** One labelled text input of a form; hands the new text, not the event, to `onChange`. */
export function FilterField({
  label,
  id,
  value,
  onChange,
  placeholder,
  required,
}: FilterFieldProps) {
  return (
    <label>
      {label}
      <input
        id={id}
        data-testid={id}
        value={value}
        placeholder={placeholder}
        required={required}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/**
 * A failure to show in place, announced to screen readers (role="alert"). Renders nothing
 * while there is no error, so callers need not guard it.
 */
export function ErrorNote({ error, testId }: { error?: string | undefined; testId?: string }) {
  if (!error) return null;
  return (
    <p className="error" role="alert" data-testid={testId}>
      {error}
    </p>
  );
}

/**
 * The header row of a data table. `hiddenLast` names a trailing column of per-row buttons:
 * it is only for screen readers, since the buttons speak for themselves on screen.
 */
export function TableHead({
  columns,
  hiddenLast,
}: {
  columns: readonly string[];
  hiddenLast?: string;
}) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c} scope="col">
            {c}
          </th>
        ))}
        {hiddenLast !== undefined && (
          <th scope="col">
            <span className="visually-hidden">{hiddenLast}</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
