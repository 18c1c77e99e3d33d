// The provider selector's rules (monitor-area.md sections 2 and 4). A selection is a list of
// provider names; every function returns a new one.
import type { Provider, ProviderKind, Region } from '../api/monitor';

export const REGIONS: { id: Region; label: string }[] = [
  { id: 'global', label: 'Global' },
  { id: 'northAmerica', label: 'North America' },
  { id: 'asiaPacific', label: 'Asia Pacific' },
  { id: 'europe', label: 'Europe' },
  { id: 'middleEastAndAfrica', label: 'Middle East / Africa' },
];

/** The content kinds, the selector's other grouping (search-side.md section 5). */
export const KINDS: { id: ProviderKind; label: string }[] = [
  { id: 'social', label: 'Social' },
  { id: 'forum', label: 'Forums' },
  { id: 'newsBlogs', label: 'News and blogs' },
  { id: 'chat', label: 'Chat and messaging' },
  { id: 'imageSharing', label: 'Image sharing' },
  { id: 'videoSharing', label: 'Video sharing' },
  { id: 'other', label: 'Pastes, leaks and logs' },
];

/** The photo network a new search leaves out unless the user picks it. */
export const EXCLUDED_FROM_DEFAULT = 'flickr';

export function isSuperset(provider: Provider): boolean {
  return provider.supersetOf.length > 0;
}

/**
 * The providers of a region in display order: by name, except that in the global group the
 * specialty sources and the superset providers come last, after the everyday ones.
 */
export function providersOfRegion(providers: Provider[], region: Region): Provider[] {
  const rank = (p: Provider) => (region === 'global' && (!p.enabled || isSuperset(p)) ? 1 : 0);
  return providers
    .filter((p) => p.region === region)
    .sort((a, b) => rank(a) - rank(b) || a.displayName.localeCompare(b.displayName));
}

/** What "select all" selects: every enabled provider, superset ones only when overlap is allowed. */
export function selectAllSet(providers: Provider[], allowOverlap: boolean): string[] {
  return providers.filter((p) => p.enabled && (allowOverlap || !isSuperset(p))).map((p) => p.name);
}

/** A new search's providers: every enabled one except superset providers and the excluded photo network. */
export function defaultSelection(providers: Provider[]): string[] {
  return providers.filter((p) => p.enabled && !isSuperset(p) && p.name !== EXCLUDED_FROM_DEFAULT).map((p) => p.name);
}

/** The names that cannot be selected together with name when overlap is not allowed. */
function overlapping(providers: Provider[], name: string): Set<string> {
  const clashes = new Set<string>();
  const chosen = providers.find((p) => p.name === name);
  for (const member of chosen?.supersetOf ?? []) clashes.add(member);
  for (const p of providers) if (p.supersetOf.includes(name)) clashes.add(p.name);
  return clashes;
}

/** Adds name, removing what it overlaps with unless overlap is allowed. */
function add(selection: string[], providers: Provider[], name: string, allowOverlap: boolean): string[] {
  const clashes = allowOverlap ? new Set<string>() : overlapping(providers, name);
  const kept = selection.filter((n) => n !== name && !clashes.has(n));
  return [...kept, name];
}

export function toggleProvider(
  selection: string[],
  providers: Provider[],
  name: string,
  checked: boolean,
  allowOverlap: boolean,
): string[] {
  return checked ? add(selection, providers, name, allowOverlap) : selection.filter((n) => n !== name);
}

/** Only: just this provider; if it already is the only one, every other instead. */
export function onlyProvider(
  selection: string[],
  providers: Provider[],
  name: string,
  allowOverlap: boolean,
): string[] {
  if (selection.length === 1 && selection[0] === name) {
    return selectAllSet(providers, allowOverlap).filter((n) => n !== name);
  }
  return [name];
}

export function selectAll(providers: Provider[], checked: boolean, allowOverlap: boolean): string[] {
  return checked ? selectAllSet(providers, allowOverlap) : [];
}

export function selectRegion(
  selection: string[],
  providers: Provider[],
  region: Region,
  checked: boolean,
  allowOverlap: boolean,
): string[] {
  const members = providers.filter((p) => p.region === region);
  if (!checked) {
    const names = new Set(members.map((p) => p.name));
    return selection.filter((n) => !names.has(n));
  }
  const chosen = selectAllSet(members, allowOverlap);
  return chosen.reduce((next, name) => add(next, providers, name, allowOverlap), selection);
}

export type CheckState = 'checked' | 'unchecked' | 'indeterminate';

/** The state of a box that stands for the candidates (select all, or a region's box). */
export function checkState(selection: string[], candidates: string[]): CheckState {
  const chosen = candidates.filter((n) => selection.includes(n)).length;
  if (chosen === 0) return 'unchecked';
  return chosen === candidates.length ? 'checked' : 'indeterminate';
}

/**
 * The selection as a search loaded from the server gets it: unknown and specialty providers
 * dropped, and without overlap, a superset provider dropped when members it carries are selected
 * too (the members were the more specific choice).
 */
export function normalizeLoaded(selection: string[], providers: Provider[], allowOverlap: boolean): string[] {
  const enabled = new Set(providers.filter((p) => p.enabled).map((p) => p.name));
  const kept = selection.filter((n) => enabled.has(n));
  if (allowOverlap) return kept;
  return kept.filter((name) => {
    const provider = providers.find((p) => p.name === name);
    return !provider || !provider.supersetOf.some((member) => kept.includes(member));
  });
}

/** With every provider selected, the external test links leave the provider list empty. */
export function providersForLinks(selection: string[], providers: Provider[], allowOverlap: boolean): string[] {
  const all = selectAllSet(providers, allowOverlap);
  return checkState(selection, all) === 'checked' ? [] : selection;
}

/** "location", "location and keyword", "location, keyword and author". */
export function joinWithAnd(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export type SearchType = 'location' | 'keyword' | 'author';

export const SEARCH_TYPES: SearchType[] = ['location', 'keyword', 'author'];

export function searchTypesOf(provider: Provider): SearchType[] {
  return SEARCH_TYPES.filter((type) => provider.searchFeatures[type]);
}

/** The tooltip over a provider's search-type icons. */
export function searchTypesTooltip(provider: Provider): string {
  return `Supports ${joinWithAnd(searchTypesOf(provider))} searches`;
}

/** The tooltip of a superset provider when overlap is not allowed. */
export function supersetTooltip(provider: Provider, providers: Provider[]): string {
  const members = provider.supersetOf.map((name) => providers.find((p) => p.name === name)?.displayName ?? name);
  return `${provider.displayName} already carries every post of ${joinWithAnd(members)}, so choosing one clears the other.`;
}
