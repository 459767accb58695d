/**
 * What the `gatehouse` command line runs of main/: the daemon (`gatehouse daemon`) and the
 * team hub (`gatehouse hub`). clients/ may not import main/, so the CLI loads these from
 * main/'s own bundle at run time (dist/main/cli-entry.js, built from main/cli-entry.ts), and
 * both sides are checked against this one contract at compile time.
 */
export interface CliEntryPoints {
  /** `gatehouse daemon`: runs headless in the foreground; resolves to the exit code. */
  daemon(o: { dashboard: boolean }): Promise<number>;
  /** `gatehouse hub`: runs the team hub in the foreground; resolves to the exit code. */
  hub(o: {
    port: string;
    bind: string;
    databaseUrl?: string;
    tlsCert?: string;
    tlsKey?: string;
    publicUrl?: string;
  }): Promise<number>;
}
