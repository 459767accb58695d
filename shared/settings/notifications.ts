import { z } from 'zod';

const HHMM = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'expected local time as HH:MM');

export const QuietHoursSettings = z.object({
  enabled: z.boolean().default(false),
  start: HHMM.default('22:00'),
  end: HHMM.default('07:00'),
});

export const NotificationSettings = z.object({
  quietHours: QuietHoursSettings.prefault({}),
});
