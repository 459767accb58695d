import { GatehouseClient } from '../../sdk/client';
import { fallbackDecision, fallbackFor, handleHookEvent, type HookOutcome } from './handle-event';
import { answerFor } from './answer';
import { readHookConfig, type HookConfig } from './hook-config';
import { parseHookPayload, type HookPayload } from './payload';

/** Margin between our own deadline and the wait, to connect, answer and exit. */
const DEADLINE_MARGIN_MS = 5_000;
const CONNECT_TIMEOUT_MS = 2_000;

/**
 * `gatehouse hook claude-code`: reads one hook payload on stdin, prints Claude Code's answer
 * on stdout and explanations on stderr, and always exits 0 — a hook that crashes or exits 2
 * would block or confuse Claude Code, so every failure becomes the configured fallback.
 *
 * This module is loaded on its own chunk and imports only the SDK's socket client: no zod,
 * no commander subcommands, nothing of the daemon.
 */
export async function runClaudeCodeHook(
  stdin: NodeJS.ReadableStream = process.stdin,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  if ((stdin as { isTTY?: boolean }).isTTY) {
    process.stderr.write(
      'gatehouse hook claude-code reads a Claude Code hook payload on stdin; Claude Code runs it for you once it is installed with `gatehouse hook claude-code --install`.\n',
    );
    process.exitCode = 4;
    return;
  }
  const config = readHookConfig(env);
  for (const w of config.warnings) process.stderr.write(`gatehouse hook: ${w}\n`);
  const text = await readAll(stdin);
  const outcome = await decide(text, config, env);
  for (const note of outcome.notes) process.stderr.write(`gatehouse hook: ${note}\n`);
  process.exitCode = 0;
  const json = outcome.answer ? `${JSON.stringify(outcome.answer)}\n` : '';
  // After our own deadline the socket may still be open: exit once the answer is flushed.
  await new Promise<void>((resolve) => process.stdout.write(json, () => resolve()));
  if (outcome.abandoned) process.exit(0);
}

async function decide(
  text: string,
  config: HookConfig,
  env: NodeJS.ProcessEnv,
): Promise<HookOutcome & { abandoned?: boolean }> {
  const parsed = parseHookPayload(text);
  if (!parsed.ok) {
    // Without a readable event name the answer takes PreToolUse's shape, the event the hook gates.
    const event = parsed.event ?? 'PreToolUse';
    return {
      answer: answerFor(
        event,
        fallbackDecision(config, `cannot read the hook payload (${parsed.error})`),
      ),
      notes: [parsed.error],
    };
  }
  const payload = parsed.payload;
  const connect = (p: HookPayload) =>
    GatehouseClient.connect({
      agent: config.agent,
      sessionKey: p.session_id.slice(0, 256),
      ...(p.cwd ? { project: p.cwd } : {}),
      labels: {
        client: 'claude-code',
        ...(p.transcript_path ? { transcriptPath: p.transcript_path } : {}),
      },
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      // One round trip per hook process: an unreachable daemon is the fallback, at once.
      reconnect: false,
    });
  // Our own deadline, below Claude Code's hook timeout: a stuck daemon still gets an answer.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<HookOutcome & { abandoned: true }>((resolve) => {
    timer = setTimeout(() => {
      const why = `no answer from Gatehouse within ${Math.round((config.waitMs + DEADLINE_MARGIN_MS) / 1000)} s`;
      void fallbackFor(payload, config, env, why).then((decision) =>
        resolve({
          answer: answerFor(payload.hook_event_name, decision),
          notes: [why],
          abandoned: true,
        }),
      );
    }, config.waitMs + DEADLINE_MARGIN_MS);
  });
  try {
    return await Promise.race([handleHookEvent(payload, { config, connect, env }), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (data += chunk));
    stream.on('end', () => resolve(data));
    stream.on('error', () => resolve(data));
  });
}
