import { openHubDatabase } from '../../main/hub/store/open-database';
import type { Sql } from '../../main/hub/store/sql';

/**
 * Every row of every table of the hub database at `url` (a real PostgreSQL), as text: what a
 * look at the database, or a backup of it, would find.
 */
export async function hubTablesText(url: string): Promise<{ tables: number; text: string }> {
  const db = await openHubDatabase({ url, dataDir: '' });
  try {
    const byTable = await hubTableTexts(db);
    return { tables: byTable.size, text: `${[...byTable.values()].join('\n')}\n` };
  } finally {
    await db.close();
  }
}

/** Each table of an open hub database (either backend), by name, with its rows as text. */
export async function hubTableTexts(db: Sql): Promise<Map<string, string>> {
  const tables = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const out = new Map<string, string>();
  for (const t of tables) {
    const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${t.name}" t`);
    out.set(t.name, rows.map((r) => r.row).join('\n'));
  }
  return out;
}
