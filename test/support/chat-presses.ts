import type { ChatLinkChannel } from '../../shared/remote';
import { ChatButtons } from '../../main/remote/chat-buttons';
import { ChatPresses } from '../../main/remote/chat-presses';
import {
  createDecisionLinkService,
  type DecisionLinkService,
} from '../../main/remote/decision-link-service';
import type { LinkDecider } from '../../main/remote/link-decider';
import { ChatButtonsRepository } from '../../main/store/chat-buttons-repository';
import type { EngineHarness } from './engine-harness';

/**
 * The decision links over the harness's engine and database, built as the daemon builds them
 * (`dashboardUrl`: the local dashboard's address, when one is serving).
 */
export function harnessDecisionLinks(
  h: EngineHarness,
  dashboardUrl: string | undefined = undefined,
): DecisionLinkService {
  return createDecisionLinkService({
    home: h.dir,
    db: h.db,
    engine: h.engine,
    work: h.work,
    clock: h.clock,
    settings: () => h.settings.get(),
    dashboardUrl: () => dashboardUrl,
  });
}

/** One chat app's buttons and press handling, with the links and store they stand on. */
export interface ChatPressStage {
  links: DecisionLinkService;
  store: ChatButtonsRepository;
  buttons: ChatButtons;
  presses: ChatPresses;
}

/**
 * A chat app's buttons and the press handling that decides through them, over the harness's
 * engine and store and its fake clock, its refusals audited by the engine: what each app's
 * press tests stand on. `decider` replaces the real one (a test slowing it down wraps it).
 */
export function chatPressStage(
  h: EngineHarness,
  o: {
    app: ChatLinkChannel;
    allowedUserIds: readonly string[];
    decider?: (real: LinkDecider) => Pick<LinkDecider, 'redeemAction'>;
  },
): ChatPressStage {
  const links = harnessDecisionLinks(h);
  const store = new ChatButtonsRepository(h.db);
  const now = () => h.clock.now();
  const buttons = new ChatButtons({
    app: o.app,
    links: links.links,
    store,
    key: 'k'.repeat(43),
    now,
  });
  const presses = new ChatPresses({
    app: o.app,
    allowedUserIds: () => o.allowedUserIds,
    buttons,
    store,
    decider: o.decider ? o.decider(links.decider) : links.decider,
    audit: async (type, fields) => {
      h.engine.recordAudit(type, fields);
      await h.engine.durable();
    },
    now,
  });
  return { links, store, buttons, presses };
}

/** Files a `git_push` an agent waits on; its request id once the request is stored. */
export async function waitingPush(h: EngineHarness, description = 'push'): Promise<string> {
  const a = h.hello();
  void h.engine.request(a, { action: 'git_push', description, urgency: 'normal', wait: true });
  await h.engine.durable();
  const open = h.store.listOpenRequests().find((r) => r.description === description);
  if (!open) throw new Error(`no open request "${description}"`);
  return open.requestId;
}
