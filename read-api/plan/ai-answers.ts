/**
 * This month's assistant answers per user, as state in the read store: one document per answer (`insertNew`, so an
 * answer counted twice counts once, and concurrent answers never lose a count). Months are calendar months in UTC.
 * The assistant records each answer it gives with `record`; GET /me/plan and /assistant/status read `usage`.
 */
import type { ReadStore } from '../../services/readstore/read-store.port';

export const usageMonth = (at: Date) => at.toISOString().slice(0, 7);

/** The first instant of the month after `at` (UTC). */
export const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)).toISOString();

export class AiAnswers {
  private readonly answers;
  private indexed: Promise<void> | null = null;

  constructor(store: ReadStore) {
    this.answers = store.collection('_ai_answers');
  }

  private ensureIndexes(): Promise<void> {
    return (this.indexed ??= this.answers.ensureIndex(['userId', 'month']));
  }

  /** Counts one answer (by its id, e.g. the assistant message id) for the user's month; false if already counted. */
  async record(userId: string, answerId: string, at = new Date()): Promise<boolean> {
    await this.ensureIndexes();
    return this.answers.insertNew({ _id: `${userId}:${answerId}`, userId, month: usageMonth(at), at: at.toISOString() });
  }

  /** Answers counted for the user in the month of `at` (0 until the first). */
  async usage(userId: string, at = new Date()): Promise<number> {
    await this.ensureIndexes();
    return this.answers.count({ userId, month: usageMonth(at) });
  }
}
