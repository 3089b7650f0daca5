/**
 * The visitor cancellation policies by name only (no libraries), so the booking pages' entry chunk
 * can check an answer without loading zod or luxon; the rules are in cancellation-policy.ts.
 */
export const VISITOR_CANCELLATION_POLICIES = ['future_days_until_start', 'until_start', 'never'] as const;
export type VisitorCancellationPolicy = (typeof VISITOR_CANCELLATION_POLICIES)[number];
