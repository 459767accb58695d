import { resolveSocketPath } from '../../socket-path';
import { decideToolCall, recordEvent, type HookLink, type HookOutcome } from './decide';
import { connectNetWhenNeeded, connectPipe } from './pipe-socket';
import { RelayLink, type HookConnector } from './relay-link';
import { fallbackDecision, fallbackFor } from './fallback';
import { readHookConfig, type HookConfig } from './hook-config';
import { readStdin, stdinIsTerminal, writeStdout } from './stdio';
import { callNote } from './call-note';
import type { SecretVariable } from '../../../tools/secret-variables';
import type { AgentAdapter, CallResultEvent, RecordEvent, ToolCallEvent } from './types';

/** Margin between our own deadline and the wait, to connect, answer and exit. */
const DEADLINE_MARGIN_MS = 5_000;
const CONNECT_TIMEOUT_MS = 2_000;

/** Where the hook reads its payload and prints its answer (stdio.ts: fd 0 and fd 1). */
export interface HookIo {
  isTerminal(): Promise<boolean>;
  read(): Promise<string>;
  write(text: string): Promise<void>;
}

const STDIO: HookIo = { isTerminal: stdinIsTerminal, read: readStdin, write: writeStdout };

/**
 * `gatehouse hook <agent>`: reads one hook payload on stdin, prints the agent's answer on
 * stdout and explanations on stderr, and always exits 0 — a hook that crashes would block or
 * confuse the agent, so every failure becomes the configured fallback (fail closed).
 *
 * Loaded by the hook's own small entry (clients/hooks/hook-main.ts): the RPC channel
 * (shared/node/rpc/) and the adapters, no zod, no commander, nothing of the daemon.
 */
export async function runHook(
  adapter: AgentAdapter,
  env: NodeJS.ProcessEnv = process.env,
  io: HookIo = STDIO,
): Promise<void> {
  if (await io.isTerminal()) {
    process.stderr.write(
      `gatehouse hook ${adapter.agent} reads a ${adapter.defaults.label} hook payload on stdin; ${adapter.defaults.label} runs it for you once it is installed with \`gatehouse hook ${adapter.agent} --install\`.\n`,
    );
    process.exitCode = 4;
    return;
  }
  const config = readHookConfig(env, adapter.defaults);
  for (const w of config.warnings) process.stderr.write(`gatehouse hook: ${w}\n`);
  // The connection opens while the payload is read: it does not depend on it. It is left to
  // the process's exit below, where the answer is surely out by then (POSIX: stdout and
  // stderr writes to pipes and files are synchronous).
  const exitsAfterAnswer = process.platform !== 'win32';
  const link = new RelayLink(resolveSocketPath(env), CONNECT_TIMEOUT_MS, {
    connector: connectPipe,
    endsWithProcess: exitsAfterAnswer,
  });
  const text = await io.read();
  const { event, outcome, abandoned } = await decide(adapter, text, config, env, link).finally(() =>
    link.close(),
  );
  for (const note of outcome.notes) process.stderr.write(`gatehouse hook: ${note}\n`);
  process.exitCode = 0;
  const answer = answerOf(adapter, event, outcome);
  const json = answer === undefined ? '' : `${JSON.stringify(answer)}\n`;
  // After our own deadline the socket may still be open: exit once the answer is flushed.
  await io.write(json);
  if (abandoned || exitsAfterAnswer) process.exit(0);
}

/** How the relay hosted away from the agent reaches Gatehouse and sees the agent. */
export interface HostedRelayOptions {
  /**
   * Opens the session (the daemon's engine itself, main/server/hook-http-link.ts); by default
   * over the socket like any client.
   */
  open?: () => HookConnector;
  /**
   * The secret variables the agent's commands may hold, where its environment is out of
   * sight (HookConfig.secretVariables); by default those set in `env`.
   */
  secretVariables?: readonly SecretVariable[];
}

/**
 * The same relay hosted in the daemon (its http hook, main/server/hook-http-start.ts): the
 * agent's answer for one payload, so the http hook and the command hook cannot decide
 * differently. Over the socket at `socketPath` like any client, unless `options.open` gives
 * the session another way.
 */
export async function answerHookPayload(
  adapter: AgentAdapter,
  text: string,
  env: NodeJS.ProcessEnv,
  socketPath: string,
  options: HostedRelayOptions = {},
): Promise<{ answer: unknown; notes: string[] }> {
  const read = readHookConfig(env, adapter.defaults);
  const config = options.secretVariables
    ? { ...read, secretVariables: options.secretVariables }
    : read;
  const open =
    options.open ??
    (() => new RelayLink(socketPath, CONNECT_TIMEOUT_MS, { connector: connectNetWhenNeeded }));
  const link = open();
  const { event, outcome } = await decide(adapter, text, config, env, link).finally(() =>
    link.close(),
  );
  return {
    answer: answerOf(adapter, event, outcome),
    notes: [...config.warnings, ...outcome.notes],
  };
}

/** What the agent reads on stdout for an outcome: none when there is nothing to say. */
function answerOf(adapter: AgentAdapter, event: string, outcome: HookOutcome): unknown {
  if (outcome.callNote !== undefined) return adapter.noteAnswer?.(event, outcome.callNote);
  return outcome.decision ? adapter.answer(event, outcome.decision) : undefined;
}

async function decide(
  adapter: AgentAdapter,
  text: string,
  config: HookConfig,
  env: NodeJS.ProcessEnv,
  link: HookConnector,
): Promise<{ event: string; outcome: HookOutcome; abandoned?: boolean }> {
  const parsed = adapter.parse(text);
  if (parsed.kind === 'invalid') {
    // Without a readable event name the answer takes the gating event's shape.
    return {
      event: parsed.event ?? adapter.gateEvent,
      outcome: {
        decision: fallbackDecision(
          adapter,
          config,
          `cannot read the hook payload (${parsed.error})`,
        ),
        notes: [parsed.error],
      },
    };
  }
  if (parsed.kind === 'ignore') return { event: parsed.event, outcome: { notes: [] } };
  const connect = (e: ToolCallEvent | RecordEvent | CallResultEvent): Promise<HookLink> =>
    link.hello({
      agent: config.agent,
      sessionKey: e.sessionId.slice(0, 256),
      // The session's project: a call's own directory (its cwd) is not where the project is.
      ...((e.kind === 'tool' && e.project) || e.cwd
        ? { project: (e.kind === 'tool' && e.project) || e.cwd }
        : {}),
      labels: {
        client: adapter.agent,
        ...(e.transcriptPath ? { transcriptPath: e.transcriptPath } : {}),
      },
    });
  const deps = { adapter, config, connect, env };
  if (parsed.kind === 'record')
    return { event: parsed.event, outcome: await recordEvent(parsed, deps) };
  if (parsed.kind === 'result')
    return { event: parsed.event, outcome: await callNote(parsed, deps) };
  const call = parsed;
  // Our own deadline, below the agent's hook timeout: a stuck daemon still gets an answer.
  // Armed once this turn of the event loop is over, when the request is out (pipe-socket.ts
  // says why), so that it costs the hook nothing while Gatehouse decides.
  let timer: NodeJS.Timeout | undefined;
  let decided = false;
  const deadline = new Promise<{ outcome: HookOutcome; abandoned: true }>((resolve) => {
    setImmediate(() => {
      if (decided) return;
      timer = setTimeout(() => {
        const why = `no answer from Gatehouse within ${Math.round((config.waitMs + DEADLINE_MARGIN_MS) / 1000)} s`;
        void fallbackFor(adapter, call, config, env, why).then((decision) =>
          resolve({ outcome: { decision, notes: [why] }, abandoned: true }),
        );
      }, config.waitMs + DEADLINE_MARGIN_MS);
    });
  });
  try {
    const outcome = await Promise.race([
      decideToolCall(call, deps).then((o) => ({ outcome: o })),
      deadline,
    ]);
    return { event: call.event, ...outcome };
  } finally {
    decided = true;
    if (timer) clearTimeout(timer);
  }
}
