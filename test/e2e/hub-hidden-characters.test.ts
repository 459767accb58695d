import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitForPending } from '../support/daemon';
import { hubRequestRow } from '../support/hub-page';
import { BIDI_CONTROLS, leftToRight, letterPositions } from '../support/visual-order';
import { hubWithMachineForFile, SCREENSHOTS } from './harness';

const REVERSED = 'git status\u202e ecrof-- hsup tig';

/**
 * The team dashboard is read by people who did not see the agent at work, on another machine:
 * a command an agent on a joined machine wrote with a right-to-left override reaches the hub
 * as the agent wrote it (the machine stores and publishes it exactly), and the hub's request
 * list and detail show the override as a marked chip, with the command's letters drawn in the
 * order they are stored, so `ecrof-- hsup tig` cannot read as `git push --force`.
 */
describe('hidden and bidirectional characters on the team dashboard', () => {
  const stage = hubWithMachineForFile({ agent: 'claude-code' });

  it('marks the override in the list and the detail, and draws the command in stored order', async () => {
    const { agent, admin, project, watched } = stage;
    await agent.gate({
      client: 'claude-code',
      event: 'PreToolUse',
      tool: 'Bash',
      input: { command: REVERSED, description: `Check\u200b the tree` },
      toolUseId: 'tu-hub-hidden',
      cwd: project,
      wait: false,
    });
    const { requestId } = await waitForPending(
      admin,
      (r) => r.dedupeKey === 'claude-code:tu-hub-hidden',
    );
    const { page } = watched;
    const row = hubRequestRow(page, requestId);
    await row.waitFor({ timeout: 30_000 });
    const open = row.getByTestId('hub-request-open');
    expect(await open.textContent()).not.toMatch(/[\u200b]/);
    expect(await open.locator('[data-testid=hidden-char]').first().getAttribute('data-code')).toBe(
      'U+200B',
    );

    await open.click();
    const command = page.getByTestId('hub-detail-command');
    await command.waitFor();
    expect(await command.innerText()).toBe('git statusU+202E ecrof-- hsup tig');
    expect(await command.textContent()).not.toMatch(BIDI_CONTROLS);
    expect(await command.locator('[data-testid=hidden-char]').getAttribute('data-code')).toBe(
      'U+202E',
    );
    expect(leftToRight(await letterPositions(command, 'ecrof'))).toBe(true);
    expect(await page.getByTestId('hub-detail-description').textContent()).not.toMatch(
      /[\u200b\u202e]/,
    );
    await page
      .getByTestId('hub-request-detail')
      .screenshot({ path: join(SCREENSHOTS, 'hub-hidden-characters.png') });
    expect(watched.problems).toEqual([]);
  }, 120_000);
});
