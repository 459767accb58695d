import { Fragment } from 'react';
import {
  hiddenCharactersIn,
  visibleTextParts,
  type HiddenCharacter,
} from '../../../shared/visible-text';

/**
 * Text an agent wrote (a command, a description, a target, a path, a reason, a session's
 * title), shown so that it hides nothing. Each character a browser would act on instead of
 * showing (a bidirectional override that reverses `ecrof-- hsup tig` into `git push --force`,
 * a zero-width space, a control character: shared/visible-text.ts) is drawn as a marked
 * `U+202E` chip, and the text is isolated left-to-right from the page around it, so even a
 * strong right-to-left letter the list does not name cannot reorder the UI beside it. What is
 * stored and what goes back to the agent stay exactly as the agent wrote them.
 */
export function AgentText({ text, testId }: { text: string; testId?: string }) {
  return (
    <span className="agent-text" dir="ltr" data-testid={testId}>
      <MarkedText text={text} />
    </span>
  );
}

/**
 * The text with its hidden characters as chips, without an isolating element of its own: for
 * many small runs (a diff's highlighted tokens) inside one element that isolates them all
 * (`className="agent-text" dir="ltr"`).
 */
export function MarkedText({ text }: { text: string }) {
  return (
    <>
      {visibleTextParts(text).map((part, i) =>
        'text' in part ? (
          <Fragment key={i}>{part.text}</Fragment>
        ) : (
          <HiddenMark key={i} hidden={part.hidden} />
        ),
      )}
    </>
  );
}

/** One hidden character: its code point in a chip, its name on hover and for screen readers. */
function HiddenMark({ hidden }: { hidden: HiddenCharacter }) {
  return (
    <span
      className="hidden-char"
      data-testid="hidden-char"
      data-code={hidden.code}
      title={`${hidden.name} (${hidden.code}), hidden in the agent's text`}
      aria-label={`${hidden.name} ${hidden.code}`}
    >
      {hidden.code}
    </span>
  );
}

/**
 * Said beside a field whose value must stay exact (the editor of a command approved as
 * edited): the hidden characters it holds, by name, since the field itself cannot mark them.
 */
export function HiddenCharactersWarning({ text, testId }: { text: string; testId: string }) {
  const hidden = hiddenCharactersIn(text);
  if (hidden.length === 0) return null;
  return (
    <p className="picture-omitted" role="note" data-testid={testId}>
      This text holds characters that do not show or that reorder what does:{' '}
      {hidden.map((h, i) => (
        <Fragment key={h.code}>
          {i > 0 ? ', ' : ''}
          {h.name} <HiddenMark hidden={h} />
        </Fragment>
      ))}
      . The box shows them as a browser does: unseen, or reordering the text around them.
    </p>
  );
}
