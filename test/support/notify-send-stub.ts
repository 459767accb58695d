import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/** A notify-send that records each notice instead of showing it. */
export interface NotifySendStub {
  dir: string;
  /** A daemon's environment with the stub first on PATH. */
  env: { PATH: string };
  /** Each notice given, in order: its summary and body. */
  notices(): { summary: string; body: string }[];
  summaries(): string[];
  /** Removes the stub's folder. */
  remove(): void;
}

/** A notify-send on PATH that records each notice it is given (summary and body) and prints an id. */
export function notifySendStub(): NotifySendStub {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-notify-send-'));
  const log = join(dir, 'notices.jsonl');
  writeFileSync(log, '');
  const script = join(dir, 'notify-send');
  writeFileSync(
    script,
    `#!${process.execPath}
const args = process.argv.slice(2);
const at = args.indexOf('--');
const notice = { summary: args[at + 1], body: args[at + 2], args: args.slice(0, at) };
require('node:fs').appendFileSync(${JSON.stringify(log)}, JSON.stringify(notice) + '\\n');
process.stdout.write('1\\n');
`,
  );
  chmodSync(script, 0o755);
  const notices = () =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { summary: string; body: string });
  return {
    dir,
    env: { PATH: `${dir}${delimiter}${process.env.PATH ?? ''}` },
    notices,
    summaries: () => notices().map((n) => n.summary),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
