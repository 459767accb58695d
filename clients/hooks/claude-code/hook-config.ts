// The hook's settings are the adapter layer's, shared by every agent (clients/hooks/adapter).
export { readHookConfig } from '../adapter/hook-config';
