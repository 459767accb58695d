import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../support/daemon';

/**
 * What the pinned Gemini CLI (test/agents/package.json) reads from a BeforeTool and an
 * AfterTool hook's answer, read from its installed bundle: the field the adapter edits a call
 * with, that BeforeTool has no text for the model on an allowed call, and that AfterTool's
 * `additionalContext` (the approval note) is added to the tool's result. These pin the adapter's assumptions, so an upgrade
 * that changes them fails here, saying what to change, rather than quietly running the
 * model's own call, or leaving a person's approval note undelivered once it could be.
 */
const bundleDir = join(ROOT, 'test', 'agents', 'node_modules', '@google', 'gemini-cli', 'bundle');

/** The source of one top-level function or class of the bundle, from its start to the next. */
function section(source: string, start: string): string {
  const at = source.indexOf(start);
  if (at < 0) return '';
  const next = source
    .slice(at + start.length)
    .search(/\n(?:async function |function |var |\/\/ packages\/)/);
  return source.slice(at, next < 0 ? undefined : at + start.length + next);
}

/** The bundle's chunks that hold Gemini CLI's scheduler (each build of it has a copy). */
function schedulerChunks(): string[] {
  const chunks = readdirSync(bundleDir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(bundleDir, f), 'utf8'))
    .filter((text) => text.includes('async function evaluateBeforeToolHook('));
  expect(chunks.length, `no chunk of ${bundleDir} holds evaluateBeforeToolHook`).toBeGreaterThan(0);
  return chunks;
}

describe('the pinned Gemini CLI reading a BeforeTool answer', () => {
  it("builds the call from hookSpecificOutput.tool_input (the adapter's edited call)", () => {
    for (const chunk of schedulerChunks()) {
      const output = section(chunk, 'var BeforeToolHookOutput = class');
      expect(output, 'BeforeToolHookOutput no longer reads tool_input: fix the adapter').toContain(
        'this.hookSpecificOutput["tool_input"]',
      );
      const evaluate = section(chunk, 'async function evaluateBeforeToolHook(');
      expect(evaluate).toContain('getModifiedToolInput()');
      // The whole edited input becomes the call (not merged into the model's).
      expect(evaluate).toContain('tool.build(modifiedInput)');
    }
  });

  it('gives the model no text from an allowing answer (the note goes with AfterTool)', () => {
    for (const chunk of schedulerChunks()) {
      const evaluate = section(chunk, 'async function evaluateBeforeToolHook(');
      expect(evaluate.length).toBeGreaterThan(0);
      // When this fails, Gemini CLI passes BeforeTool's additionalContext on: answer a
      // person's approval with it (geminiAnswer, as codexAnswer does), test it end to end,
      // and drop the AfterTool hook that carries the note now.
      expect(evaluate).not.toMatch(/additionalContext|getAdditionalContext/);
    }
  });
});

describe('the pinned Gemini CLI reading an AfterTool answer', () => {
  it("adds hookSpecificOutput.additionalContext to the tool's result (the approval note)", () => {
    for (const chunk of schedulerChunks()) {
      const output = section(chunk, 'var DefaultHookOutput = class');
      expect(
        output,
        'hook outputs no longer read additionalContext: fix geminiNoteAnswer',
      ).toContain('this.hookSpecificOutput["additionalContext"]');
      const run = section(chunk, 'async function executeToolWithHooks(');
      expect(run, 'no executeToolWithHooks: find where AfterTool runs now').not.toBe('');
      // AfterTool gets the input the tool ran with: the daemon knows the call by it.
      expect(run).toMatch(/fireAfterToolEvent\(\s*toolName,\s*toolInput,/);
      expect(run).toContain('const toolInput = invocation.params');
      // Its additionalContext is what the model reads next, beside the tool's output.
      expect(run).toContain('afterOutput?.getAdditionalContext()');
      expect(run).toMatch(/toolResult\.llmContent \+= wrappedContext/);
    }
  });
});
