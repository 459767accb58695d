import { z } from 'zod';
import type { AdminClient } from '../admin-client';
import { UsageError } from '../run-admin';

export const SLACK_DEFAULT_API = 'https://slack.com/api';

const Answer = z.object({ ok: z.boolean(), error: z.string().optional() }).loose();

/** One Web API call; the token goes in the header and errors name only the method. */
async function slackCall(
  api: string,
  token: string,
  method: string,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${api.replace(/\/+$/, '')}/${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      Authorization: `Bearer ${token}`,
    },
    body: '{}',
    redirect: 'error',
    signal: AbortSignal.timeout(15_000),
  });
  const answer = Answer.safeParse(await res.json().catch(() => undefined));
  if (!answer.success || !answer.data.ok)
    throw new Error(
      `slack ${method} failed: HTTP ${res.status} ${answer.success ? (answer.data.error ?? '') : ''}`.trim(),
    );
  return answer.data;
}

export interface SlackSetupOptions {
  token: string;
  appToken?: string;
  channel?: string;
  /** The user ids who may decide. */
  allow: readonly string[];
  api?: string;
  test: boolean;
}

/**
 * `gatehouse chat setup slack`: checks the bot token (`auth.test`) and the app-level token
 * (`apps.connections.open`, the Socket Mode way back), saves `notifications.channels.slack`
 * with the channel and the users allowed to decide, and has the daemon send a test message
 * whose button answers who may decide.
 */
export async function setupSlack(c: AdminClient, o: SlackSetupOptions): Promise<void> {
  const api = o.api ?? SLACK_DEFAULT_API;
  if (!o.token.startsWith('xoxb-')) throw new UsageError('--token must be the bot token (xoxb-…)');
  if (!o.appToken?.startsWith('xapp-'))
    throw new UsageError('--app-token must be the app-level token (xapp-…) with connections:write');
  if (!o.channel) throw new UsageError('--channel <C…> is needed: the channel to post to');
  const allowed = [...o.allow];
  if (allowed.length === 0)
    throw new UsageError('--allow <U…,U…> is needed: the Slack user ids who may decide');
  const me = await slackCall(api, o.token, 'auth.test');
  await slackCall(api, o.appToken, 'apps.connections.open');
  const set = (key: string, value: unknown) =>
    c.call('settings.set', { key: `notifications.channels.slack.${key}`, value });
  await set('apiBase', api);
  await set('botToken', o.token);
  await set('appToken', o.appToken);
  await set('channel', o.channel);
  await set('allowedUserIds', allowed);
  await set('enabled', true);
  const team = typeof me.team === 'string' ? me.team : 'the workspace';
  const bot = typeof me.user === 'string' ? me.user : 'the bot';
  console.log(
    `Slack is set up: ${bot} in ${team} posts to ${o.channel}; ${allowed.join(', ')} may decide.`,
  );
  if (!o.test) return;
  const test = await c.call('notifications.test', { channel: 'slack' });
  if (!test.ok) throw new Error(`the test message was not delivered: ${test.error ?? 'unknown'}`);
  console.log('A test message was sent; press its button in Slack.');
}
