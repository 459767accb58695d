import type {
  AdminMethod,
  AdminParsedParams,
  AdminResult,
} from '../../../shared/protocol/method-map';

/**
 * A handler for each admin method of `K`: its validated params in, its result out. Each
 * capability's table is an object literal that `satisfies` this for its own methods, so a
 * method the map does not have, or one it lists and the table lacks, fails to compile.
 */
export type AdminHandlers<K extends AdminMethod> = {
  [M in K]: (p: AdminParsedParams<M>) => AdminResult<M> | Promise<AdminResult<M>>;
};
