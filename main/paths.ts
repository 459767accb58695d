import { join } from 'node:path';

export { resolveHome, resolveSocketPath } from '../shared/node/socket-path';

export const adminTokenPath = (home: string): string => join(home, 'admin.token');
export const databasePath = (home: string): string => join(home, 'gatehouse.db');
export const transcriptsDir = (home: string): string => join(home, 'transcripts');
