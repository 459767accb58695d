import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { renderProtocolDoc } from '../../../../scripts/render-protocol-doc';
import {
  DecisionNotification,
  ControlNotification,
} from '../../../../shared/protocol/agent-methods';
import { ErrorCode } from '../../../../shared/protocol/errors';
import { adminMethods, agentMethods, isAgentMethod } from '../../../../shared/protocol/method-map';

const root = join(import.meta.dirname, '..', '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'protocol.md'), 'utf8');

describe('docs/protocol.md', () => {
  it('is exactly what the generator writes from the schemas (run `node scripts/protocol-doc.mjs`)', () => {
    expect(
      renderProtocolDoc(doc),
      'docs/protocol.md is generated from shared/protocol: run `node scripts/protocol-doc.mjs` and commit the result',
    ).toBe(doc);
  });

  it('has every agent method, admin method and error code with its fields', () => {
    for (const name of Object.keys(agentMethods)) expect(doc).toContain(`### ${name}\n`);
    for (const name of Object.keys(adminMethods)) expect(doc).toContain(`| \`${name}\` |`);
    for (const code of Object.values(ErrorCode))
      expect(doc).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    expect(doc).toContain('| `agent` | string | yes | 1..64 chars |');
    expect(doc).toContain('| `timeoutMs` | integer | no | > 0; ≤ 86400000 |');
    expect(doc).toContain('| `urgency` | "low" \\| "normal" \\| "high" | no | default "normal" |');
    expect(doc).toContain('| `verdicts[].breaker` | string | yes |');
  });

  it('picks up a field the schemas gain and refuses a section for a method they lost', () => {
    const shape = agentMethods.hello.params.shape;
    const widened = { ...shape, color: z.string().max(7).optional() };
    const original = agentMethods.hello.params;
    (agentMethods.hello as { params: z.ZodType }).params = z.object(widened);
    try {
      expect(renderProtocolDoc(doc)).toContain('| `color` | string | no | 0..7 chars |');
    } finally {
      (agentMethods.hello as { params: z.ZodType }).params = original;
    }
    const stale = doc.replace(
      '### end\n',
      '### end\n\n<!-- generated:agent.approve -->\n<!-- /generated:agent.approve -->\n',
    );
    expect(() => renderProtocolDoc(stale)).toThrow(/agent\.approve/);
  });

  it('lists a method that has tables but no prose yet under "not yet described"', () => {
    const withoutEnd = doc.replace(
      /<!-- generated:agent\.end -->[\s\S]*?<!-- \/generated:agent\.end -->\n/,
      '',
    );
    const out = renderProtocolDoc(withoutEnd);
    const more = /<!-- generated:agent\.more -->([\s\S]*?)<!-- \/generated:agent\.more -->/.exec(
      out,
    )![1]!;
    expect(more).toContain('### end');
    expect(more).toContain('`summary.costUsd`');
  });

  it('has an example exchange whose every line fits the schemas', () => {
    const block = /```jsonl\n([\s\S]*?)```/.exec(doc)![1]!.trim().split('\n');
    const sent = new Map<number, string>();
    let checked = 0;
    for (const line of block) {
      const msg = JSON.parse(line.slice(2)) as {
        id?: number;
        method?: string;
        params?: unknown;
        result?: unknown;
        error?: { code: number };
      };
      if (line.startsWith('> ')) {
        sent.set(msg.id!, msg.method!);
        if (isAgentMethod(msg.method!)) agentMethods[msg.method].params.parse(msg.params);
        else expect(Object.hasOwn(adminMethods, msg.method!)).toBe(true);
      } else if (msg.id === undefined) {
        const schema = { decision: DecisionNotification, control: ControlNotification }[
          msg.method as 'decision' | 'control'
        ];
        schema.parse(msg.params);
      } else if (msg.error) {
        expect(Object.values(ErrorCode)).toContain(msg.error.code);
      } else {
        const method = sent.get(msg.id)!;
        expect(isAgentMethod(method)).toBe(true);
        agentMethods[method as keyof typeof agentMethods].result.parse(msg.result);
      }
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });
});
