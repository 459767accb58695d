// The hook's settings are the adapter layer's, shared by every agent (clients/hooks/adapter).
export {
  DEFAULT_WAIT_MS,
  readHookConfig,
  type Fallback,
  type HookConfig,
} from '../adapter/hook-config';
