/**
 * A command on one line, as a notification or a page's summary line shows it: each line break
 * becomes a visible ` ⏎ `. A break separates two commands; a space would join `echo hi` and
 * `rm -rf ~` on two lines into one harmless-looking `echo hi rm -rf ~`.
 */
export const commandOnOneLine = (command: string): string =>
  command.replace(/[ \t]*\r?\n[ \t]*/g, ' ⏎ ');
