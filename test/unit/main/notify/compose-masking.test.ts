import { describe, expect, it } from 'vitest';
import { newRequestItem, reminderItem } from '../../../../main/notify/compose';
import { ntfyMessageOf } from '../../../../main/notify/ntfy-channel';
import { makeRequest } from '../../../support/notify-fixtures';

// A notification leaves the machine (ntfy, email, chat, the hub's channels): a token the agent
// put in its command, description, reason or target must not travel with it.
const TOKEN = 'ghp_NOTIFYTOKENNOTIFYTOKEN123456';
const PASSWORD = 'hunter2hunter2';

describe('notification text masks secrets the agent wrote', () => {
  const request = makeRequest({
    description: `Run: curl -H "Authorization: token ${TOKEN}" https://api.example.com`,
    rationale: `deploy with password=${PASSWORD}`,
    command: `curl -H "Authorization: token ${TOKEN}" https://api.example.com`,
    target: `https://x:${TOKEN}@example.com/repo.git`,
  });

  it('in the title, body and facts of a new request and a reminder', () => {
    for (const item of [newRequestItem(request), reminderItem(request, request.createdAt)]) {
      const all = JSON.stringify(item);
      expect(all).not.toContain(TOKEN.slice(4));
      expect(all).not.toContain(PASSWORD);
      expect(item.body).toContain('ghp_…[masked]');
      expect(item.facts?.command).toContain('curl -H');
    }
  });

  it('before trimming, so a long command cut short shows no tail of the token', () => {
    const long = makeRequest({ command: `${'x'.repeat(190)} ${TOKEN}` });
    const item = newRequestItem(long);
    expect(JSON.stringify(item)).not.toMatch(/NOTIFY|TOKEN1/);
  });

  it('in what an ntfy message carries', () => {
    const message = JSON.stringify(ntfyMessageOf(newRequestItem(request)));
    expect(message).not.toContain(TOKEN.slice(4));
  });
});
