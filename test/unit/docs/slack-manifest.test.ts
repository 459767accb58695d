import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * The Slack app manifest in docs/notifications.md is what a person pastes into Slack: it must
 * turn Socket Mode and interactivity on, ask for no request URL (nothing inbound) and no scope
 * beyond `chat:write`, which is all Gatehouse's Web API calls need.
 */
const Manifest = z.object({
  display_information: z.object({ name: z.string() }),
  features: z.object({ bot_user: z.object({ display_name: z.string() }) }),
  oauth_config: z.object({ scopes: z.object({ bot: z.array(z.string()) }) }),
  settings: z.object({
    interactivity: z.object({ is_enabled: z.literal(true) }).strict(),
    socket_mode_enabled: z.literal(true),
    org_deploy_enabled: z.boolean(),
    token_rotation_enabled: z.literal(false),
  }),
});

describe('docs: the Slack app manifest', () => {
  it('parses, enables Socket Mode and interactivity, has no request URL and asks only chat:write', () => {
    const page = readFileSync(join(ROOT, 'docs', 'notifications.md'), 'utf8');
    const section = page.slice(page.indexOf('### Slack'));
    const block = /```json\n([\s\S]*?)\n```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const manifest = Manifest.parse(JSON.parse(block!));
    expect(manifest.oauth_config.scopes.bot).toEqual(['chat:write']);
    expect(block).not.toMatch(/request_url|event_subscriptions/);
  });
});
