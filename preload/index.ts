/**
 * The preload of every Gatehouse window (bundled to dist/preload/index.cjs; sandboxed
 * preloads load CommonJS only). It exposes the narrow, typed admin API as `window.gatehouse`
 * and nothing else; renderer/src/env.d.ts declares that global.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createGatehouseApi } from '../shared/gatehouse-api';
import { createIpcTransport } from './ipc-renderer';

contextBridge.exposeInMainWorld('gatehouse', createGatehouseApi(createIpcTransport(ipcRenderer)));
