const SHORTCUTS: [string, string][] = [
  ['j / ↓', 'next request'],
  ['k / ↑', 'previous request'],
  ['x', 'select or unselect the request for a batch decision'],
  ['a', 'approve once'],
  ['s', 'approve for this session'],
  ['W', 'approve always (adds a rule)'],
  ['m', 'approve for N minutes: go to the minutes field'],
  ['c', 'approve with conditions: go to the conditions field'],
  ['d', 'deny: go to the reason field, Enter denies'],
  ['r', 'show the request context as raw JSON, or readable again'],
  ['v', "show or hide the full diff of the request's push"],
  ['1 … 5', 'switch view'],
  ['?', 'show or hide this list'],
];

export function ShortcutHelp() {
  return (
    <dl className="shortcuts" data-testid="shortcut-list" aria-label="Keyboard shortcuts">
      {SHORTCUTS.map(([key, what]) => (
        <div key={key}>
          <dt>
            <kbd>{key}</kbd>
          </dt>
          <dd>{what}</dd>
        </div>
      ))}
    </dl>
  );
}
