import { z } from 'zod';
import type { RequestRecord } from '../../shared/domain';
import type { DiscordEmbed, DiscordMessageBody } from '../notify/discord-api';
import { discordLiteral } from '../notify/discord-channel';

/** Discord's limit on an embed field's value. */
const FIELD_MAX = 1024;

/** The picture's files or push as embed fields: what changes, in a few lines. */
export function pictureFields(r: RequestRecord | undefined): NonNullable<DiscordEmbed['fields']> {
  const p = r?.picture;
  if (!p) return [];
  const fields: NonNullable<DiscordEmbed['fields']> = [];
  if (p.files?.length)
    fields.push({
      name: 'Files',
      value: clip(p.files.map((f) => `${discordLiteral(f.path)}  +${f.added} −${f.removed}`)),
    });
  if (p.push) {
    const push = p.push;
    fields.push({
      name: `Push ${push.commitCount} commit${push.commitCount === 1 ? '' : 's'}${push.force ? ' (FORCE)' : ''}`,
      value: clip([
        `${discordLiteral(push.branch ?? '(no branch)')} to ${discordLiteral(push.remote)}`,
        ...push.commits.map((c) => `${c.sha.slice(0, 10)} ${discordLiteral(c.subject)}`),
        ...(push.diffstat ? push.diffstat.split('\n').map(discordLiteral) : []),
      ]),
    });
  }
  return fields;
}

function clip(lines: string[]): string {
  const text = lines.join('\n');
  return text.length <= FIELD_MAX ? text || '—' : `${text.slice(0, FIELD_MAX - 1)}…`;
}

const StoredEmbed = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  color: z.number().optional(),
  fields: z
    .array(z.object({ name: z.string(), value: z.string(), inline: z.boolean().optional() }))
    .optional(),
});

/** Decided: green, red, or grey for anything else. */
const DECIDED_COLOR = { approved: 0x2ecc71, denied: 0xe74c3c, other: 0x95a5a6 };

/**
 * A request's message once decided: the embed as posted plus a line saying who decided, how
 * and when, and no buttons. `posted` is the embed's JSON as stored when it was posted.
 */
export function decidedMessage(posted: string, r: RequestRecord, line: string): DiscordMessageBody {
  let embed: DiscordEmbed = {};
  try {
    const parsed = StoredEmbed.safeParse(JSON.parse(posted));
    if (parsed.success) embed = parsed.data;
  } catch {
    // An unreadable record: the decided line alone still says what happened.
  }
  return {
    embeds: [
      {
        ...embed,
        color:
          r.status === 'approved'
            ? DECIDED_COLOR.approved
            : r.status === 'denied'
              ? DECIDED_COLOR.denied
              : DECIDED_COLOR.other,
        fields: [...(embed.fields ?? []), { name: 'Decided', value: discordLiteral(line) }].slice(
          0,
          25,
        ),
      },
    ],
    components: [],
    allowed_mentions: { parse: [] },
  };
}
