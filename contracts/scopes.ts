import { z } from 'zod';
import { SCOPES } from '../services/http/access';

/** One scope of api-spec.md section 5: what API keys and OAuth applications may be granted. */
export const Scope = z.enum(SCOPES).meta({ id: 'Scope' });
export type Scope = z.infer<typeof Scope>;

/** A list of scopes: at least one, each known; duplicates are dropped by the handlers. */
export const ScopeList = z.array(Scope).min(1).max(SCOPES.length * 2);
