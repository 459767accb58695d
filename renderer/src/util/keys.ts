/** True when a key press belongs to a text field, not to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** True when a key event carries a modifier that belongs to the browser or the system. */
export const hasSystemModifier = (e: KeyboardEvent): boolean => e.ctrlKey || e.metaKey || e.altKey;
