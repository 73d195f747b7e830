/**
 * OAuth applications: state documents keyed by client ID (what every token check looks up), holding only the
 * SHA-256 of the client secret. Deleting one is what revokes its tokens: every check reads it afresh.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { OAuthApplication } from '../../contracts/oauth';
import type { Scope } from '../../contracts/scopes';
import { newId, sha256 } from '../../services/ids';
import type { ReadStore } from '../../services/readstore/read-store.port';

export const OAUTH_APPLICATIONS = '_oauth_applications';

export interface ApplicationDoc {
  _id: string;
  id: string;
  userId: string;
  name: string;
  clientId: string;
  /** null for public clients. */
  secretHash: string | null;
  redirectUri: string;
  scopes: Scope[];
  createdAt: string;
  [k: string]: unknown;
}

export interface NewApplication {
  name: string;
  redirectUri: string;
  scopes: Scope[];
  public: boolean;
}

export const applicationView = (doc: ApplicationDoc): OAuthApplication => ({
  id: doc.id, name: doc.name, clientId: doc.clientId, redirectUri: doc.redirectUri, scopes: doc.scopes,
  public: doc.secretHash === null, createdAt: doc.createdAt,
});

export class OAuthApplications {
  private indexes: Promise<unknown> | null = null;

  constructor(private readonly store: ReadStore) {}

  private async docs() {
    const docs = this.store.collection<ApplicationDoc>(OAUTH_APPLICATIONS);
    this.indexes ??= Promise.all([docs.ensureIndex(['userId']), docs.ensureIndex(['id'])]);
    await this.indexes;
    return docs;
  }

  async create(userId: string, input: NewApplication): Promise<{ application: OAuthApplication; clientSecret: string | null }> {
    const clientSecret = input.public ? null : `coa_${randomBytes(32).toString('base64url')}`;
    const clientId = randomBytes(16).toString('hex');
    const doc: ApplicationDoc = {
      _id: clientId, id: newId(), userId, name: input.name, clientId, secretHash: clientSecret && sha256(clientSecret),
      redirectUri: input.redirectUri, scopes: [...new Set(input.scopes)], createdAt: new Date().toISOString(),
    };
    await (await this.docs()).put(doc);
    return { application: applicationView(doc), clientSecret };
  }

  async list(userId: string): Promise<OAuthApplication[]> {
    const docs = await (await this.docs()).find({ userId }, { sort: [['createdAt', 1], ['id', 1]] });
    return docs.map(applicationView);
  }

  /** Removes one of the user's applications; returns its client ID, or null when the user has none with this id. */
  async remove(userId: string, id: string): Promise<string | null> {
    const docs = await this.docs();
    const [doc] = await docs.find({ id, userId }, { limit: 1 });
    if (!doc) return null;
    await docs.delete(doc._id);
    return doc.clientId;
  }

  async byClientId(clientId: string): Promise<ApplicationDoc | null> {
    return (await this.docs()).get(clientId);
  }

  /** The application if the secret is right (or, for a public client, absent); null otherwise. */
  async authenticate(clientId: string, secret: string | undefined): Promise<ApplicationDoc | null> {
    const app = await this.byClientId(clientId);
    if (!app) return null;
    if (app.secretHash === null) return secret === undefined ? app : null;
    if (secret === undefined) return null;
    const ok = timingSafeEqual(Buffer.from(sha256(secret), 'hex'), Buffer.from(app.secretHash, 'hex'));
    return ok ? app : null;
  }
}
