// The search builder's form (monitor-area.md sections 3 to 5): its state, the rules that block
// submission, the request it sends, and the links that test it in the other apps. The keyword
// rules, names and summaries come from the query-language port, so the browser and the server agree.
import type { GroupMini, MonitorSearch, NotificationSetting, Provider, SearchRequest, ShareRole } from '../api/monitor';
import { dateRangeProblem, fromUnixSeconds, toUnixSeconds } from './dateRange';
import { defaultSelection, normalizeLoaded } from './providerSelection';
import { autoName, duplicateName, keywordSummary, MAX_NAME_LENGTH, validateQuery } from './query';

export interface SearchForm {
  /** Set when editing. */
  id?: number;
  name: string;
  /** Once the user types a name, it is no longer filled in from the search terms. */
  nameEdited: boolean;
  groupId: number | null;
  /**
   * The group created with the search, when the user has none to save into (the Uncategorized
   * group is never offered); null when a group is chosen from the list.
   */
  newGroupName: string | null;
  location: string;
  locationBounds: string;
  author: string;
  keywords: string;
  providers: string[];
  searchFilterIds: number[];
  startDate: Date | null;
  endDate: Date | null;
  sharedUsers: { username: string; role: ShareRole }[];
  imagesOnly: boolean;
  videosOnly: boolean;
  boards: string[];
  alerts: NotificationSetting[];
}

/** A new search: the default providers and, when opened from a group, that group. */
export function newForm(providers: Provider[], groupId: number | null = null): SearchForm {
  return {
    name: '',
    nameEdited: false,
    groupId,
    newGroupName: null,
    location: '',
    locationBounds: '',
    author: '',
    keywords: '',
    providers: defaultSelection(providers),
    searchFilterIds: [],
    startDate: null,
    endDate: null,
    sharedUsers: [],
    imagesOnly: false,
    videosOnly: false,
    boards: [],
    alerts: [],
  };
}

/** The form of a saved search, to edit it. */
export function formFromSearch(search: MonitorSearch, providers: Provider[]): SearchForm {
  const { search: terms } = search;
  return {
    id: search.id,
    name: search.value,
    nameEdited: true,
    groupId: search.groupId,
    newGroupName: null,
    location: terms.address,
    locationBounds: terms.address_bounds,
    author: terms.author_query,
    keywords: terms.query,
    providers: normalizeLoaded(
      terms.providers.map((p) => p.name),
      providers,
      false,
    ),
    searchFilterIds: search.filterLists.map((f) => f.id),
    startDate: fromUnixSeconds(search.start_at),
    endDate: fromUnixSeconds(search.end_at),
    sharedUsers: search.sharedUsers
      .filter((u) => !u.fromGroup)
      .map((u) => ({ username: u.email || u.username, role: u.role })),
    imagesOnly: terms.images_only,
    videosOnly: terms.video_only,
    boards: terms.board_names,
    alerts: search.notificationSettings,
  };
}

/**
 * A copy of a saved search, to create: the copy suffix on its name, and its group only when the
 * user may add searches to it (never someone's Uncategorized group).
 */
export function duplicateForm(search: MonitorSearch, groups: GroupMini[], providers: Provider[]): SearchForm {
  const group = groups.find((g) => g.id === search.groupId);
  return {
    ...formFromSearch(search, providers),
    id: undefined,
    name: duplicateName(search.value),
    groupId: group && group.canEdit && !group.isSavedSearch ? group.id : null,
  };
}

/** The form after a change, its name filled in from the search terms until the user edits it. */
export function withAutoName(form: SearchForm): SearchForm {
  if (form.nameEdited) return form;
  return { ...form, name: autoName(form.name, form.location, form.keywords, form.author) };
}

/** The groups a search may be put in: those the user can edit, except Uncategorized groups. */
export function selectableGroups(groups: GroupMini[]): GroupMini[] {
  return groups.filter((g) => g.canEdit && !g.isSavedSearch);
}

/** The name proposed for the group a first search is saved into. */
export const FIRST_GROUP_NAME = 'My searches';

/**
 * The form, proposing a new group when no group is chosen and the user has none to save into, so
 * that the first save is one step instead of a detour through the group form.
 */
export function withProposedGroup(form: SearchForm, groups: GroupMini[]): SearchForm {
  if (form.groupId !== null || selectableGroups(groups).length > 0) return form;
  return { ...form, newGroupName: FIRST_GROUP_NAME };
}

/** The group rule: a group chosen, or a valid name for the one created with the search. */
function groupProblem(form: SearchForm): string | null {
  if (form.groupId !== null) return null;
  if (form.newGroupName === null) return 'You must select a group';
  if (form.newGroupName.trim() === '') return 'Group Name is required';
  if ([...form.newGroupName].length > MAX_NAME_LENGTH) return `Use at most ${MAX_NAME_LENGTH} characters.`;
  return null;
}

export type FormField = 'name' | 'group' | 'providers' | 'query' | 'keywords' | 'dateRange';

export interface FieldProblem {
  field: FormField;
  title: string;
  message: string;
}

/** The keyword rules' messages, empty when the keywords are fine (or absent). */
export function keywordProblems(keywords: string): string[] {
  if (keywords.trim() === '') return [];
  return validateQuery(keywords, 'saved_search')
    .filter((issue) => issue.severity === 'error')
    .map((issue) => issue.message);
}

export function hasQuery(form: SearchForm): boolean {
  return [form.location, form.keywords, form.author].some((v) => v.trim() !== '') || form.boards.length > 0;
}

/** Every rule the form breaks; submission waits until there are none. */
export function formProblems(form: SearchForm, now: Date): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (form.name.trim() === '') problems.push({ field: 'name', title: 'Name', message: 'Give the search a name.' });
  else if ([...form.name].length > MAX_NAME_LENGTH) {
    problems.push({ field: 'name', title: 'Name', message: `Use at most ${MAX_NAME_LENGTH} characters.` });
  }
  const group = groupProblem(form);
  if (group) problems.push({ field: 'group', title: 'Group', message: group });
  if (form.providers.length === 0) {
    problems.push({ field: 'providers', title: 'Data sources', message: 'Choose at least one data source.' });
  }
  if (!hasQuery(form)) {
    problems.push({
      field: 'query',
      title: 'Search terms',
      message: 'Add a location, keywords, an author or at least one board.',
    });
  }
  for (const message of keywordProblems(form.keywords))
    problems.push({ field: 'keywords', title: 'Keywords', message });
  const dates = dateRangeProblem({ startDate: form.startDate, endDate: form.endDate }, now);
  if (dates) problems.push({ field: 'dateRange', title: 'Date range', message: dates });
  return problems;
}

/** The keyword summary shown under the keywords, or '' when there is nothing to summarise. */
export function summaryOf(keywords: string): string {
  return keywords.trim() === '' || keywordProblems(keywords).length > 0 ? '' : keywordSummary(keywords);
}

/** The request payload of the form (the spec's payload form). */
export function toRequest(form: SearchForm): SearchRequest {
  return {
    group_id: form.groupId,
    name: form.name.trim(),
    author_id: '',
    author_query: form.author.trim(),
    address: form.location.trim(),
    address_bounds: form.locationBounds,
    keywords: form.keywords.trim(),
    providers: form.providers,
    start_at: toUnixSeconds(form.startDate),
    end_at: toUnixSeconds(form.endDate),
    search_filters: form.searchFilterIds,
    images_only: form.imagesOnly,
    video_only: form.videosOnly,
    board_names: form.boards,
    alerts: form.alerts,
    shared_users: form.sharedUsers,
  };
}

/** Server field names (422 errors) and the form field each belongs to. */
const serverFields: Record<string, FormField> = {
  name: 'name',
  group_id: 'group',
  providers: 'providers',
  keywords: 'keywords',
  address: 'query',
  address_bounds: 'query',
  author_query: 'query',
  board_names: 'query',
  start_at: 'dateRange',
  end_at: 'dateRange',
};

/** The server's 422 field errors, as problems of the form's fields. */
export function serverProblems(errors: Record<string, string[]> | undefined): FieldProblem[] {
  return Object.entries(errors ?? {}).flatMap(([key, messages]) => {
    const field = serverFields[key.split('.')[0] ?? key] ?? 'query';
    return messages.map((message) => ({ field, title: key, message }));
  });
}

function millis(date: Date | null): string {
  return date ? String(date.getTime()) : '';
}

/** The Locate quick search that tests the form; linkProviders is empty when all are selected. */
export function locateTestUrl(form: SearchForm, linkProviders: string[]): string {
  const params = new URLSearchParams({
    address_bounds: form.locationBounds,
    keywords: form.keywords.trim(),
    providers: linkProviders.join(','),
    author_query: form.author.trim(),
    boards: form.boards.join(','),
    start_date: millis(form.startDate),
    end_date: millis(form.endDate),
    images_only: String(form.imagesOnly),
    video_only: String(form.videosOnly),
    search_filters: form.searchFilterIds.join(','),
  });
  return `/locate/quick-search?${params.toString()}`;
}

/** The Beacon search that tests the form. */
export function beaconTestUrl(form: SearchForm, linkProviders: string[]): string {
  const params = new URLSearchParams({
    text: form.keywords.trim(),
    authors: form.author.trim(),
    boardNames: form.boards.join(','),
    networks: linkProviders.join(','),
    startPublishedTimestamp: millis(form.startDate),
    endPublishedTimestamp: millis(form.endDate),
  });
  return `/beacon?${params.toString()}`;
}

const BOARD_CHIP_CHARACTERS = 10;

/** The advanced-options chip: one board's name cut to 10 characters, or how many boards. */
export function boardChipLabel(boards: string[]): string {
  if (boards.length === 1) {
    const [board = ''] = boards;
    return board.length > BOARD_CHIP_CHARACTERS ? `${board.slice(0, BOARD_CHIP_CHARACTERS)}…` : board;
  }
  return `${boards.length} boards`;
}
