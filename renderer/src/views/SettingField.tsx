import {
  fieldId,
  type FormField,
  type InputValue,
  type TableColumn,
  type TableRow,
} from './settings-form';

interface FieldProps {
  field: FormField;
  input: InputValue;
  error?: string | undefined;
  /** Something outside the stored value that decides it now (an environment variable). */
  note?: string | undefined;
  onChange: (input: InputValue) => void;
}

/** One setting: its label, the widget its schema type calls for, its help text and error. */
export function SettingField({ field, input, error, note, onChange }: FieldProps) {
  const id = fieldId(field.key);
  const described = [field.help && `${id}-help`, note && `${id}-note`, error && `${id}-error`]
    .filter(Boolean)
    .join(' ');
  const common = {
    id,
    'data-testid': id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': described || undefined,
  };
  const w = field.widget;
  let control;
  switch (w.kind) {
    case 'boolean':
      control = (
        <input
          type="checkbox"
          {...common}
          checked={input === true}
          onChange={(e) => onChange(e.target.checked)}
        />
      );
      break;
    case 'select':
      control = (
        <select {...common} value={String(input)} onChange={(e) => onChange(e.target.value)}>
          {w.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    case 'number':
      control = (
        <input
          {...common}
          type="number"
          step={w.integer ? 1 : 'any'}
          value={String(input)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    case 'list':
      control = <ListEditor {...common} items={input as string[]} onChange={onChange} />;
      break;
    case 'map':
      control = (
        <MapEditor
          {...common}
          entries={input as [string, string][]}
          integer={w.value.integer}
          onChange={onChange}
        />
      );
      break;
    case 'table':
      control = (
        <TableEditor
          {...common}
          rows={input as TableRow[]}
          columns={w.columns}
          onChange={onChange}
        />
      );
      break;
    case 'json':
      control = (
        <textarea
          {...common}
          rows={3}
          value={String(input)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
      break;
    default:
      control = (
        <input
          {...common}
          type={
            w.format === 'time'
              ? 'time'
              : w.format === 'secret'
                ? 'password'
                : w.format === 'url'
                  ? 'url'
                  : 'text'
          }
          autoComplete="off"
          value={String(input)}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className={`field field-${w.kind}`}>
      <label htmlFor={id} id={`${id}-label`}>
        {field.label}
      </label>
      {control}
      {note && (
        <span className="help warn-text" id={`${id}-note`} data-testid={`${id}-note`}>
          {note}
        </span>
      )}
      {field.help && (
        <span className="help" id={`${id}-help`}>
          {field.help}
        </span>
      )}
      {error && (
        <span className="error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

interface EditorProps {
  id: string;
  'data-testid': string;
  'aria-invalid'?: boolean | undefined;
  'aria-describedby'?: string | undefined;
}

/** A list of strings: one text input per item, with add and remove. */
function ListEditor({
  id,
  items,
  onChange,
  ...rest
}: EditorProps & { items: string[]; onChange: (items: string[]) => void }) {
  return (
    <div className="list-editor" role="group" aria-labelledby={`${id}-label`} {...rest} id={id}>
      {items.map((item, i) => (
        <div className="list-row" key={i}>
          <input
            type="text"
            aria-label={`Item ${i + 1}`}
            value={item}
            onChange={(e) => onChange(items.map((v, j) => (j === i ? e.target.value : v)))}
          />
          <button
            type="button"
            className="button subtle"
            aria-label={`Remove item ${i + 1}`}
            onClick={() => onChange(items.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button type="button" className="button subtle" onClick={() => onChange([...items, ''])}>
        Add
      </button>
    </div>
  );
}

/** Named numbers (per phase, per model): a name and a number per row, with add and remove. */
function MapEditor({
  id,
  entries,
  integer,
  onChange,
  ...rest
}: EditorProps & {
  entries: [string, string][];
  integer: boolean;
  onChange: (entries: [string, string][]) => void;
}) {
  const set = (i: number, entry: [string, string]) =>
    onChange(entries.map((e, j) => (j === i ? entry : e)));
  return (
    <div className="list-editor" role="group" aria-labelledby={`${id}-label`} {...rest} id={id}>
      {entries.map(([name, value], i) => (
        <div className="list-row" key={i}>
          <input
            type="text"
            aria-label={`Name ${i + 1}`}
            value={name}
            onChange={(e) => set(i, [e.target.value, value])}
          />
          <input
            type="number"
            step={integer ? 1 : 'any'}
            aria-label={name ? `Value of ${name}` : `Value ${i + 1}`}
            value={value}
            onChange={(e) => set(i, [name, e.target.value])}
          />
          <button
            type="button"
            className="button subtle"
            aria-label={`Remove ${name || `entry ${i + 1}`}`}
            onClick={() => onChange(entries.filter((_, j) => j !== i))}
          >
            ×
          </button>
        </div>
      ))}
      <button
        type="button"
        className="button subtle"
        onClick={() => onChange([...entries, ['', '']])}
      >
        Add
      </button>
    </div>
  );
}

/**
 * Objects of numbers by name (caps of named agents): a row per name, a number input per
 * column, with add and remove. An empty cell means no separate value.
 */
function TableEditor({
  id,
  rows,
  columns,
  onChange,
  ...rest
}: EditorProps & {
  rows: TableRow[];
  columns: TableColumn[];
  onChange: (rows: TableRow[]) => void;
}) {
  const set = (i: number, row: TableRow) => onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <div className="table-editor" role="group" aria-labelledby={`${id}-label`} {...rest} id={id}>
      {rows.length > 0 && (
        <table className="table compact">
          <thead>
            <tr>
              <th scope="col">Name</th>
              {columns.map((c) => (
                <th scope="col" key={c.name}>
                  {c.label}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map(([name, texts], i) => (
              <tr key={i} data-testid={`${id}-row`}>
                <td>
                  <input
                    type="text"
                    aria-label={`Name ${i + 1}`}
                    value={name}
                    onChange={(e) => set(i, [e.target.value, texts])}
                  />
                </td>
                {columns.map((c, k) => (
                  <td key={c.name}>
                    <input
                      type="number"
                      step={c.number.integer ? 1 : 'any'}
                      aria-label={`${c.label} of ${name || `row ${i + 1}`}`}
                      data-column={c.name}
                      value={texts[k] ?? ''}
                      onChange={(e) =>
                        set(i, [
                          name,
                          columns.map((_, m) => (m === k ? e.target.value : (texts[m] ?? ''))),
                        ])
                      }
                    />
                  </td>
                ))}
                <td>
                  <button
                    type="button"
                    className="button subtle"
                    aria-label={`Remove ${name || `row ${i + 1}`}`}
                    onClick={() => onChange(rows.filter((_, j) => j !== i))}
                  >
                    ×
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button
        type="button"
        className="button subtle"
        data-testid={`${id}-add`}
        onClick={() => onChange([...rows, ['', columns.map(() => '')]])}
      >
        Add
      </button>
    </div>
  );
}
