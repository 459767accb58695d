import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon } from '../../support/daemon';

/** A session's summary shows each request as it is now, not as it was when the session ended. */
describe('session summaries follow their requests (real daemon, real CLI)', () => {
  let d: TestDaemon;
  beforeAll(async () => {
    d = await TestDaemon.start({}, ['--no-dashboard']);
  });
  afterAll(async () => {
    await d.stop();
  });

  it('a request approved after the end moves from "Awaiting decision" to done, in session.get and the CLI', async () => {
    const agent = await d.agent({ agent: 'pusher' });
    const push = await agent.request({
      action: 'git_push',
      description: 'Push the release branch',
      wait: false,
    });
    const mail = await agent.request({
      action: 'send_email',
      description: 'Mail the changelog',
      wait: false,
    });
    const { summary: atEnd } = await agent.end('completed');
    agent.close();
    expect(atEnd.needsReview).toContain(
      `Awaiting decision: Push the release branch [${push.requestId}]`,
    );

    expect((await d.cli(['approve', push.requestId])).code).toBe(0);
    expect((await d.cli(['deny', mail.requestId, '--reason', 'not yet'])).code).toBe(0);

    const admin = await d.admin();
    const { summary } = await admin.call('session.get', { sessionId: agent.sessionId! });
    admin.close();
    expect(summary?.needsReview.join('\n')).not.toContain('Awaiting decision');
    expect(summary?.done).toContain('Push the release branch (approved by human)');
    expect(summary?.needsReview).toContain('Denied: Mail the changelog (not yet)');
    // What only the end knew stays.
    expect(summary?.endedAt).toBe(atEnd.endedAt);

    const printed = (await d.cli(['summary', agent.sessionId!])).stdout;
    expect(printed).not.toContain('Awaiting decision');
    expect(printed).toContain('Push the release branch (approved by human)');
    expect(printed).toContain('Denied: Mail the changelog (not yet)');
  });
});
