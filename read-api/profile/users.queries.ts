import type { UserRecord } from '../../contracts/domain-events';
import { ACCOUNTS } from '../../projections/accounts.projection';
import { publicView, type ReadModels } from '../../projections/read-models';
import type { Doc } from '../../services/readstore/read-store.port';

type UserDoc = Doc & UserRecord & { _passwordHash: string };

export async function userById(models: ReadModels, id: string): Promise<UserRecord | null> {
  const doc = await (await models.docs(ACCOUNTS))<UserDoc>('users').get(id);
  return doc ? publicView<UserRecord>(doc) : null;
}

export async function credentialsByEmail(models: ReadModels, email: string) {
  const [doc] = await (await models.docs(ACCOUNTS))<UserDoc>('users').find({ _emailLower: email.trim().toLowerCase() }, { limit: 1 });
  return doc ? { user: publicView<UserRecord>(doc), passwordHash: doc._passwordHash } : null;
}

/** Resolves attendee emails to user ids where the email belongs to a user. */
export async function userIdsByEmail(models: ReadModels, emails: string[]): Promise<Map<string, string>> {
  const lower = [...new Set(emails.map((e) => e.toLowerCase()))];
  const out = new Map<string, string>();
  if (lower.length === 0) return out;
  const docs = await (await models.docs(ACCOUNTS))<UserDoc>('users').find({ _emailLower: { $in: lower } });
  for (const d of docs) out.set(d._emailLower as string, d.id);
  return out;
}

export async function userByUsername(models: ReadModels, username: string): Promise<UserRecord | null> {
  const [doc] = await (await models.docs(ACCOUNTS))<UserDoc>('users').find({ username }, { limit: 1 });
  return doc ? publicView<UserRecord>(doc) : null;
}
