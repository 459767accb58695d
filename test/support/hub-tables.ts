import { openHubDatabase } from '../../main/hub/store/open-database';

/**
 * Every row of every table of the hub database at `url` (a real PostgreSQL), as text: what a
 * look at the database, or a backup of it, would find.
 */
export async function hubTablesText(url: string): Promise<{ tables: number; text: string }> {
  const db = await openHubDatabase({ url, dataDir: '' });
  try {
    const tables = await db.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    let text = '';
    for (const t of tables) {
      const rows = await db.query<{ row: string }>(`SELECT t::text AS row FROM "${t.name}" t`);
      text += `${rows.map((r) => r.row).join('\n')}\n`;
    }
    return { tables: tables.length, text };
  } finally {
    await db.close();
  }
}
