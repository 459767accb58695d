import { describe, expect, it } from 'vitest';
import {
  breakerTripItem,
  newRequestItem,
  reminderItem,
  sessionSummaryItem,
} from '../../../../main/notify/compose';
import { ntfyMessageOf } from '../../../../main/notify/ntfy-channel';
import type { NotificationItem } from '../../../../main/notify/types';
import type { SessionRecord } from '../../../../shared/domain';
import type { RequestPicture } from '../../../../shared/request-picture/picture-schema';
import { holdsHiddenCharacters } from '../../../../shared/visible-text';
import { makeRequest } from '../../../support/notify-fixtures';

// The agent is the attacker: it writes a right-to-left override into its command so a
// notification reads `git status git push --force` (or the reverse of what runs), and hides
// other characters in every field it controls.
const REVERSED = 'git status\u202e ecrof-- hsup tig';

const picture: RequestPicture = {
  files: [
    {
      path: '/p/src/pay\u2066.ts',
      kind: 'modify',
      added: 1,
      removed: 1,
      diff: '--- a/p/src/pay.ts\n+++ b/p/src/pay.ts\n@@ -1 +1 @@\n-ok\n+if (admin\u202e \u2066// check\u2069\u2066) {',
    },
  ],
};

/** Every string a notification item carries, however deep. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(stringsOf);
  return [];
}

const expectNothingHidden = (item: NotificationItem) => {
  for (const text of stringsOf(item))
    expect(holdsHiddenCharacters(text), JSON.stringify(text)).toBe(false);
};

describe('notification text shows the characters agent text hides', () => {
  const request = makeRequest({
    agent: 'builder\u200b',
    action: 'shell\u202eexec',
    description: `Check the tree: ${REVERSED}`,
    rationale: 'routine\u2067 check\u2069',
    command: REVERSED,
    target: 'origin\ufeff',
    paths: ['/p/a\u200f.ts'],
    project: '/p/proj\u061c',
    ruleReason: 'leaves\u2028the sandbox',
    risk: 'high',
    picture,
  });

  it('in the title, body, facts, diff and fields of a new request and a reminder', () => {
    for (const item of [newRequestItem(request), reminderItem(request, request.createdAt)]) {
      expectNothingHidden(item);
      expect(item.title).toContain('builder⟨U+200B⟩ wants to shell⟨U+202E⟩exec');
      expect(item.body).toContain('Command: git status⟨U+202E⟩ ecrof-- hsup tig');
      expect(item.body).toContain('Why: routine⟨U+2067⟩ check⟨U+2069⟩');
      expect(item.body).toContain('leaves⟨U+2028⟩the sandbox');
      expect(item.facts?.command).toBe('git status⟨U+202E⟩ ecrof-- hsup tig');
      expect(item.facts?.target).toBe('origin⟨U+FEFF⟩');
      expect(item.facts?.change).toContain('pay⟨U+2066⟩.ts');
      expect(item.diff).toContain('+if (admin⟨U+202E⟩ ⟨U+2066⟩// check⟨U+2069⟩⟨U+2066⟩) {');
      expect(item.agent).toBe('builder⟨U+200B⟩');
      expect(item.project).toBe('/p/proj⟨U+061C⟩');
    }
  });

  it('in what an ntfy message carries', () => {
    const message = ntfyMessageOf(newRequestItem(request));
    expect(holdsHiddenCharacters(message)).toBe(false);
    expect(message).toContain('⟨U+202E⟩');
  });

  it('in a session summary and a breaker trip', () => {
    const session: SessionRecord = {
      sessionId: 'ses-1',
      agent: 'builder\u202e',
      status: 'completed',
      startedAt: request.createdAt,
      costUsd: 0,
      connections: 0,
    };
    const summary = sessionSummaryItem(
      session,
      {
        sessionId: 'ses-1',
        startedAt: request.createdAt,
        endedAt: request.createdAt,
        text: `Ran ${REVERSED}`,
        done: [],
        needsReview: ['a\u200bb'],
        costUsd: 0,
      },
      'normal',
    );
    expectNothingHidden(summary);
    expect(summary.body).toContain('Ran git status⟨U+202E⟩ ecrof-- hsup tig');
    const trip = breakerTripItem(
      { breaker: 'cost', state: 'open', tripped: true, warning: false, current: 2, threshold: 1 },
      request.createdAt,
      'high',
      'builder\u202e',
    );
    expectNothingHidden(trip);
    expect(trip.body).toContain('gatehouse resume builder⟨U+202E⟩');
  });

  it('leaves ordinary text as it was', () => {
    const plain = newRequestItem(makeRequest({ command: 'git push origin main → ✓ 日本語' }));
    expect(plain.facts?.command).toBe('git push origin main → ✓ 日本語');
  });
});
