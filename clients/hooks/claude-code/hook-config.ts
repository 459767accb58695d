// The hook's settings are the adapter layer's, shared by every agent (shared/node/hooks/relay).
export {
  DEFAULT_WAIT_MS,
  readHookConfig,
  type Fallback,
  type HookConfig,
} from '../../../shared/node/hooks/relay/hook-config';
