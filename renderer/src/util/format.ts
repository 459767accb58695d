import { formatLocalTime } from '../../../shared/time-format';
import type { RequestRecord } from '../../../shared/domain';

/** "42 s", "5 min", "3 h", "2 d": how long ago `iso` was, relative to `now`. */
export function formatAge(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} d`;
}

export function formatTime(iso: string | undefined): string {
  if (!iso) return '—';
  // The one time format of every surface (shared/time-format.ts).
  return formatLocalTime(iso);
}

export function formatUsd(value: number): string {
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 1 ? 3 : 2)}`;
}

/** The last segment of a project path: enough to tell projects apart in a list. */
export function projectName(project: string | undefined): string {
  if (!project) return '—';
  const parts = project.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? project;
}

/**
 * What makes two requests "similar" enough to decide together: the same action on the same
 * target. Different agents may ask the same thing; that is the point of batching.
 */
export const similarityKey = (r: RequestRecord): string => `${r.action}\u0000${r.target ?? ''}`;

/** "request_id" -> "Request id"; "quietHours" -> "Quiet hours". */
export function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
