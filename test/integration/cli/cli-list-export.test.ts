import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

/** The records of an RFC 4180 CSV text: quoted fields may hold commas, quotes, line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += ch;
  }
  return records;
}

/** A daemon with 120 requests waiting (from two agents) and a few approved at once. */
describe('gatehouse list pages and gatehouse export (real daemon)', () => {
  let d: TestDaemon;
  const WAITING = 120;
  // An agent picks its own name: one that a spreadsheet would run as a formula.
  const FORMULA_AGENT = '=HYPERLINK("http://x","a, b")';
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
    const builder = await d.agent({ agent: 'builder' });
    const other = await d.agent({ agent: FORMULA_AGENT });
    for (let i = 0; i < WAITING; i++)
      await (i % 4 ? builder : other).request({
        action: 'git_push',
        description: `push ${i}`,
        wait: false,
      });
    for (let i = 0; i < 5; i++)
      await builder.request({ action: 'read_file', description: `read ${i}`, wait: false });
    builder.close();
    other.close();
  }, 60_000);
  afterAll(async () => {
    await d.stop();
  });

  it('shows the first page in queue order and how many more', async () => {
    const { stdout, code } = await d.cli(['list']);
    expect(code).toBe(0);
    const rows = stdout.split('\n').filter((l) => l.startsWith('req-'));
    expect(rows).toHaveLength(50);
    // Queue order (shared/queue-order.ts): none of these agents waits and all are normal, so
    // the oldest comes first.
    expect(rows[0]).toMatch(/push 0$/);
    expect(stdout).toContain(`… and ${WAITING - 50} more: --all, --limit N`);

    const five = (await d.cli(['list', '--limit', '5'])).stdout;
    expect(five.split('\n').filter((l) => l.startsWith('req-'))).toHaveLength(5);
    expect(five).toContain(`… and ${WAITING - 5} more`);
  });

  it('--all lists every waiting request page by page, with no "more" line', async () => {
    const { stdout } = await d.cli(['list', '--all']);
    const rows = stdout.split('\n').filter((l) => l.startsWith('req-'));
    expect(rows).toHaveLength(WAITING);
    expect(new Set(rows.map((r) => r.split(' ')[0])).size).toBe(WAITING);
    expect(stdout).not.toContain('more:');
    expect(stdout.match(/^ID /gm)).toHaveLength(1);
  });

  it('--json is one array of everything, one request a line; --jsonl one JSON a line', async () => {
    const json = (await d.cli(['list', '--json'])).stdout;
    const array = JSON.parse(json) as { requestId: string; status: string }[];
    expect(array).toHaveLength(WAITING);
    expect(json.trim().split('\n')).toHaveLength(WAITING + 2);
    const lines = (await d.cli(['list', '--jsonl', '--agent', 'builder'])).stdout
      .trim()
      .split('\n');
    const parsed = lines.map((l) => JSON.parse(l) as { agent: string; status: string });
    expect(parsed).toHaveLength(WAITING * 0.75);
    expect(parsed.every((r) => r.agent === 'builder' && r.status === 'pending')).toBe(true);
    const history = JSON.parse((await d.cli(['list', '--history', '--json'])).stdout) as unknown[];
    expect(history).toHaveLength(WAITING + 5);
  });

  it('exports the audit trail as JSON Lines and as quoted CSV, for a time range', async () => {
    const admin = await d.admin();
    const { events: all } = await admin.call('audit.query', { limit: 5000 });
    admin.close();
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-export-'));
    try {
      const jsonl = await d.cli(['export']);
      expect(jsonl.code).toBe(0);
      const exported = jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { seq: number });
      expect(exported.map((e) => e.seq)).toEqual(all.map((e) => e.seq));

      const file = join(dir, 'audit.csv');
      const csv = await d.cli(['export', '--format', 'csv', '--out', file]);
      expect(csv.code).toBe(0);
      expect(csv.stderr).toContain(`wrote ${all.length} audit entries`);
      const [header, ...records] = parseCsv(readFileSync(file, 'utf8'));
      expect(header).toEqual(['seq', 'at', 'type', 'sessionId', 'agent', 'requestId', 'data']);
      expect(records).toHaveLength(all.length);
      for (const [i, r] of records.entries()) {
        expect(r).toHaveLength(7);
        expect(Number(r[0])).toBe(all[i]!.seq);
        expect(JSON.parse(r[6]!)).toEqual(all[i]!.data);
      }
      // The formula is kept as text: a leading apostrophe, its quotes and comma quoted.
      const formula = records.filter((r) => r[4]!.includes('HYPERLINK'));
      expect(formula.length).toBeGreaterThan(0);
      expect(formula.every((r) => r[4] === `'${FORMULA_AGENT}`)).toBe(true);

      // A range: since the middle entry's time, and until it.
      const mid = all[Math.floor(all.length / 2)]!.at;
      const since = (await d.cli(['export', '--since', mid])).stdout.trim().split('\n');
      const until = (await d.cli(['export', '--until', mid])).stdout.trim().split('\n');
      expect(since.length + until.length).toBe(all.length);
      const bad = await d.cli(['export', '--since', 'last tuesday-ish']);
      expect(bad.code).toBe(4);
      expect(bad.stderr).toContain('is not a date');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
