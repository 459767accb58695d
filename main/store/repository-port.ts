/** The intersection of a union's members: what an object joined from all of them offers. */
type Joined<U> = (U extends unknown ? (u: U) => void : never) extends (j: infer J) => void
  ? J
  : never;

/**
 * One object with the methods of several repositories, each bound to its repository: a port
 * whose methods live on more than one table is built straight from the repositories that
 * implement them, without a forwarding line per method. Two repositories with a method of
 * the same name are refused (the port would silently take one of them).
 */
export function joinRepositories<R extends object[]>(...repositories: R): Joined<R[number]> {
  const port: Record<string, unknown> = {};
  const owners = new Map<string, object>();
  for (const repository of repositories) {
    for (
      let proto: object | null = Object.getPrototypeOf(repository) as object | null;
      proto && proto !== Object.prototype;
      proto = Object.getPrototypeOf(proto) as object | null
    ) {
      for (const name of Object.getOwnPropertyNames(proto)) {
        const method = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (name === 'constructor' || typeof method !== 'function') continue;
        const owner = owners.get(name);
        // A subclass's method hides its base's (met later, going up the chain).
        if (owner === repository) continue;
        if (owner) throw new Error(`two repositories of one port define ${name}()`);
        owners.set(name, repository);
        port[name] = (method as (...args: unknown[]) => unknown).bind(repository);
      }
    }
  }
  return port as Joined<R[number]>;
}
