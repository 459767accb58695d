import { z } from 'zod';

export const HubSettings = z
  .object({
    publishProjects: z.array(z.string().min(1)).default([]).meta({
      title: 'Projects published to the hub',
      description:
        'When this machine joined a team hub: only requests of these projects (absolute paths; a folder covers the projects inside it) are published. Empty publishes every project. Requests of other projects stay on this machine.',
    }),
    publishAgents: z.array(z.string().min(1)).default([]).meta({
      title: 'Agents published to the hub',
      description:
        'When this machine joined a team hub: only requests of these agents (by name) are published. Empty publishes every agent. Requests of other agents stay on this machine.',
    }),
  })
  .meta({
    title: 'Team hub',
    description: 'What a machine joined to a team hub shares with it.',
  });
export type HubSettings = z.infer<typeof HubSettings>;

/** True when a request of this agent and project is published under these settings. */
export function publishedToHub(
  s: HubSettings,
  r: { agent: string; project?: string | undefined },
): boolean {
  const agentOk = s.publishAgents.length === 0 || s.publishAgents.includes(r.agent);
  const projectOk =
    s.publishProjects.length === 0 ||
    (r.project !== undefined &&
      s.publishProjects.some((p) => {
        const folder = p.endsWith('/') ? p.slice(0, -1) : p;
        return r.project === folder || r.project!.startsWith(`${folder}/`);
      }));
  return agentOk && projectOk;
}
