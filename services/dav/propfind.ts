/** PROPFIND (RFC 4918 9.1) on every resource under /dav/, Depth 0 or 1 ("infinity" is answered as 1). */
import { collectionsOf } from './collections';
import { collectionFor, notFound, ownPath, type DavContext } from './context';
import { multistatus, propResponse, type Props } from './multistatus';
import { collectionHref, homeHref, objectHref, principalHref, type DavTarget } from './paths';
import { collectionProps, homeProps, objectProps, principalProps, rootProps } from './properties';
import { childElements, clark, firstChild, nameOf, NS, parseXml } from './xml';

/** At most this many objects are listed by a Depth 1 PROPFIND of a collection (sync-collection pages past it). */
export const MAX_LISTED_OBJECTS = 5000;

export type Asked = string[] | 'all' | 'names';

/** What a PROPFIND body asks for; an empty body is allprop (RFC 4918 9.1). */
export function askedOf(body: string): Asked {
  if (!body.trim()) return 'all';
  const root = parseXml(body);
  if (nameOf(root) !== clark(NS.dav, 'propfind')) return 'all';
  if (firstChild(root, clark(NS.dav, 'propname'))) return 'names';
  const prop = firstChild(root, clark(NS.dav, 'prop'));
  return prop ? childElements(prop).map(nameOf) : 'all';
}

type Listed = Array<{ href: string; props: Props }>;

async function listed(ctx: DavContext, target: DavTarget, depth: number): Promise<Listed> {
  const user = ctx.user;
  switch (target.kind) {
    case 'root':
      return [{ href: '/dav/', props: rootProps(user) }];
    case 'principals':
      return [{ href: '/dav/principals/', props: rootProps(user) }];
    case 'principal':
      ownPath(ctx, target.user);
      return [{ href: principalHref(user.username), props: principalProps(user) }];
    case 'home': {
      ownPath(ctx, target.user);
      const out: Listed = [{ href: homeHref(user.username), props: homeProps(user) }];
      if (depth === 0) return out;
      for (const collection of await collectionsOf(ctx.app.readModels, user.id)) {
        const position = await ctx.reader.position(collection.calendar.id);
        out.push({ href: collectionHref(user.username, collection.calendar.id), props: collectionProps(user, collection, position) });
      }
      return out;
    }
    case 'collection': {
      const collection = await collectionFor(ctx, target.user, target.segment);
      const state = await ctx.reader.state(collection.calendar.id);
      const out: Listed = [{ href: collectionHref(user.username, target.segment), props: collectionProps(user, collection, state.position) }];
      if (depth === 0) return out;
      for (const object of [...state.objects.values()].slice(0, MAX_LISTED_OBJECTS)) {
        out.push({ href: objectHref(user.username, target.segment, object.uid), props: objectProps(object, collection.writable) });
      }
      return out;
    }
    case 'object': {
      const collection = await collectionFor(ctx, target.user, target.segment);
      const object = (await ctx.reader.state(collection.calendar.id)).objects.get(target.uid);
      if (!object) throw notFound();
      return [{ href: objectHref(user.username, target.segment, object.uid), props: objectProps(object, collection.writable) }];
    }
    case 'nested':
    case 'unknown':
      throw notFound();
  }
}

export async function propfind(ctx: DavContext, target: DavTarget, depthHeader: string | undefined, body: string): Promise<string> {
  const asked = askedOf(body);
  const depth = depthHeader === '0' ? 0 : 1;
  const resources = await listed(ctx, target, depth);
  return multistatus(resources.map((r) => propResponse(r.href, r.props, asked)));
}
