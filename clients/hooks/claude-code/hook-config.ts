// The hook's settings are the adapter layer's, shared by every agent (shared/node/hooks/relay).
export { readHookConfig } from '../../../shared/node/hooks/relay/hook-config';
