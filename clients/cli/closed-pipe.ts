/**
 * A reader that stops early (`gatehouse --help | head`, `gatehouse export | head -1`) closes
 * the pipe under stdout; the next write fails with EPIPE. That is the reader saying "enough",
 * not an error: every command ends there, quietly and with status 0. Handled here once, for
 * every command, instead of by each writer.
 */
export function endQuietlyWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

/**
 * True for the error a write to stdout fails with once its reader is gone. The write's own
 * callback hears it before the stream's 'error' event (above) does, so a command awaiting the
 * write reaches the CLI's error report first: that report stays silent for it.
 */
export function isClosedStdout(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === 'EPIPE' &&
    process.stdout.destroyed
  );
}
