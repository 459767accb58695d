import type { TestDaemon } from './daemon';

/**
 * The common set-up the trust tests attack: the person lets file writes and edits anywhere
 * in `project` pass without asking (`rules add write_file|edit_file --path '**'`), through the
 * real CLI. Throws when the CLI refuses.
 */
export async function allowWritesIn(d: TestDaemon, project: string): Promise<void> {
  for (const action of ['write_file', 'edit_file']) {
    const r = await d.cli([
      'rules',
      'add',
      action,
      '--path',
      '**',
      '--project',
      project,
      '--tier',
      'auto',
      '--any-action',
    ]);
    if (r.code !== 0) throw new Error(`rules add ${action} failed: ${r.stderr}`);
  }
}
