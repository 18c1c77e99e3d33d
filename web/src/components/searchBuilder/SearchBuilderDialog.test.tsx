import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Group } from '../../api/monitor';
import { Reply, fakeServer, type Request } from '../../test/fakeServer';
import { testGroup, testProfile, testProviders, testSearch } from '../../test/fixtures';
import { testFilterList } from '../../test/filterFixtures';
import { openSearchBuilder, openSearchEditor } from '../../test/searchBuilder';
import { DATE_LINE_WARNING } from './LocationField';
import { KEYWORD_MESSAGE_DELAY_MS } from './MainStep';

const user = userEvent.setup({ delay: null });

function builderServer(extra: Record<string, unknown> = {}): Request[] {
  return fakeServer({
    'GET /api/v1/monitor/providers': { data: testProviders },
    'GET /api/v1/monitor/monitor-search-groups': {
      data: [
        testGroup(3, { name: 'Protests' }),
        testGroup(4, { name: 'Read only', canEdit: false }),
        testGroup(5, { name: 'Uncategorized', isSavedSearch: true }),
      ],
    },
    'GET /api/v1/filter-lists/': { data: [] },
    ...extra,
  });
}

const openBuilder = (profile = testProfile()) => openSearchBuilder(profile);

async function fillValidSearch(dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('combobox', { name: /Group/ }));
  await user.click(await screen.findByRole('option', { name: 'Protests' }));
  fireEvent.change(within(dialog).getByLabelText('Keywords'), { target: { value: 'bridge' } });
}

afterEach(() => {
  vi.useRealTimers();
  document.cookie.split(';').forEach((c) => {
    document.cookie = `${c.split('=')[0]}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  });
});

describe('search builder', () => {
  it('offers only groups the user can edit, and starts with the default providers', async () => {
    builderServer();
    const dialog = await openBuilder();
    await user.click(within(dialog).getByRole('combobox', { name: /Group/ }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Protests']);
    await user.keyboard('{Escape}');
    // X, Reddit, Gab and VK: not the firehose, not Flickr, not the specialty source.
    expect(within(dialog).getByText('4 of 6 selected')).toBeInTheDocument();
  });

  it('waits 750 ms before telling what is wrong with the keywords, and blocks submission meanwhile', async () => {
    builderServer();
    const dialog = await openBuilder();
    await fillValidSearch(dialog);
    const keywords = within(dialog).getByLabelText('Keywords');
    const create = within(dialog).getByRole('button', { name: 'Create' });
    const rule = /Write the operators AND and OR in capitals/;
    // Only the keyword timer is faked: the dialog's transitions keep their own time.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.change(keywords, { target: { value: 'bridge and river' } });
    expect(create).toBeDisabled();
    // The rule speaks only once typing has paused.
    act(() => vi.advanceTimersByTime(KEYWORD_MESSAGE_DELAY_MS - 1));
    expect(keywords).not.toHaveAccessibleDescription(rule);
    act(() => vi.advanceTimersByTime(1));
    expect(keywords).toHaveAccessibleDescription(rule);

    fireEvent.change(keywords, { target: { value: 'bridge AND river' } });
    expect(create).toBeEnabled();
    act(() => vi.advanceTimersByTime(KEYWORD_MESSAGE_DELAY_MS));
    expect(keywords).not.toHaveAccessibleDescription(rule);
    expect(within(dialog).getByText('(bridge AND river)')).toBeInTheDocument();
  });

  it('lists every failing field for the disabled submit button', async () => {
    builderServer();
    const dialog = await openBuilder();
    expect(within(dialog).getByText('3 things to fix')).toBeInTheDocument();
    const wrapper = within(dialog).getByRole('button', { name: 'Create' }).parentElement as HTMLElement;
    expect(wrapper).toHaveAccessibleDescription(
      'Name: Give the search a name. Group: You must select a group Search terms: Add a location, keywords, an author or at least one board.',
    );
  });

  it('creates the search with the spec’s payload and shows the success step', async () => {
    const requests = builderServer({
      'POST /api/v1/monitor/searches': new Reply(201, { data: testSearch(42, { value: 'bridge' }) }),
    });
    const dialog = await openBuilder();
    await fillValidSearch(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Your saved search is running')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the search' })).toHaveAttribute('href', '/monitor/42');
    expect(screen.getByRole('link', { name: 'See it on the dashboard' })).toHaveAttribute(
      'href',
      '/monitor/dashboard?monitorSearchIds=42',
    );
    const sent = requests.find((r) => r.method === 'POST')?.body;
    expect(sent).toMatchObject({
      group_id: 3,
      name: 'bridge',
      keywords: 'bridge',
      providers: ['twitter', 'reddit', 'gab', 'vk'],
      start_at: null,
      end_at: null,
      images_only: false,
      // Only the preview, which shows what it would bring in, fills the inbox.
      backfillDays: 0,
    });
  });

  it('shows the server’s field errors', async () => {
    builderServer({
      'POST /api/v1/monitor/searches': new Reply(422, {
        message: 'The given data was invalid.',
        errors: { group_id: ['You must select a group'] },
      }),
    });
    const dialog = await openBuilder();
    await fillValidSearch(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findAllByText('You must select a group')).not.toHaveLength(0);
  });

  describe('a first search, for a user with no group to save into', () => {
    // Only the Uncategorized group exists, and the spec does not offer it.
    const firstRunServer = (createGroup: Reply) => {
      const groups = [testGroup(5, { name: 'Uncategorized', isSavedSearch: true })];
      return fakeServer({
        'GET /api/v1/monitor/providers': { data: testProviders },
        'GET /api/v1/monitor/monitor-search-groups': () => ({ data: groups }),
        'GET /api/v1/filter-lists/': { data: [] },
        'POST /api/v1/monitor/monitor-search-groups': () => {
          if (createGroup.status === 201) groups.push((createGroup.body as { data: Group }).data);
          return createGroup;
        },
        'POST /api/v1/monitor/searches': new Reply(201, { data: testSearch(42, { value: 'bridge', groupId: 9 }) }),
      });
    };

    it('is saved in one step: the proposed group, then the search in it', async () => {
      const requests = firstRunServer(new Reply(201, { data: testGroup(9, { name: 'Bridges' }) }));
      const dialog = await openBuilder();
      const groupName = within(dialog).getByLabelText(/Name of the new group/);
      expect(groupName).toHaveValue('My searches');
      fireEvent.change(groupName, { target: { value: 'Bridges' } });
      fireEvent.change(within(dialog).getByLabelText('Keywords'), { target: { value: 'bridge' } });
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      expect(await screen.findByText('Your saved search is running')).toBeInTheDocument();
      const posts = requests.filter((r) => r.method === 'POST');
      expect(posts.map((r) => r.path)).toEqual(['/api/v1/monitor/monitor-search-groups', '/api/v1/monitor/searches']);
      expect(posts[0]?.body).toEqual({ name: 'Bridges', privacy: 'private', sharedUsers: [] });
      expect(posts[1]?.body).toMatchObject({ group_id: 9, name: 'bridge' });
    });

    it('gives way to a group made in the group step (privacy, sharing)', async () => {
      firstRunServer(new Reply(201, { data: testGroup(9, { name: 'Team', privacy: 'shared' }) }));
      const dialog = await openBuilder();
      await user.click(within(dialog).getByRole('button', { name: 'New group' }));
      await user.type(await screen.findByLabelText(/^Group name/), 'Team');
      await user.click(screen.getByRole('button', { name: 'Create group' }));
      expect(await within(dialog).findByRole('combobox', { name: /Group/ })).toHaveTextContent('Team');
      expect(within(dialog).queryByLabelText(/Name of the new group/)).not.toBeInTheDocument();
    });

    it('needs a group name, and shows the server’s refusal on the field without creating the search', async () => {
      const requests = firstRunServer(
        new Reply(422, { message: 'The given data was invalid.', errors: { name: ['That name is taken.'] } }),
      );
      const dialog = await openBuilder();
      const groupName = within(dialog).getByLabelText(/Name of the new group/);
      fireEvent.change(within(dialog).getByLabelText('Keywords'), { target: { value: 'bridge' } });
      fireEvent.change(groupName, { target: { value: ' ' } });
      expect(groupName).toHaveAccessibleDescription('Group Name is required');
      expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
      fireEvent.change(groupName, { target: { value: 'Taken' } });
      await user.click(within(dialog).getByRole('button', { name: 'Create' }));
      await waitFor(() => expect(groupName).toHaveAccessibleDescription('That name is taken.'));
      expect(requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([
        '/api/v1/monitor/monitor-search-groups',
      ]);
    });
  });

  it('explains too broad keywords with the server’s four lines and only an Edit search button', async () => {
    builderServer({
      'POST /api/v1/monitor/searches': new Reply(422, {
        message:
          'Keywords too broad\nThe keyword "the" matches almost every post.\nUse more specific keywords.\nOr combine them with AND.',
        blacklistedKeywords: ['the'],
      }),
    });
    const dialog = await openBuilder();
    await fillValidSearch(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const warning = await screen.findByRole('dialog', { name: 'Keywords too broad' });
    expect(warning).toHaveTextContent(
      'The keyword "the" matches almost every post.Use more specific keywords.Or combine them with AND.',
    );
    expect(
      within(warning)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Edit search']);
    await user.click(within(warning).getByRole('button', { name: 'Edit search' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Keywords too broad' })).not.toBeInTheDocument());
  });

  it('shows a limit the organization reached with the server’s title and description', async () => {
    builderServer({
      'POST /api/v1/monitor/searches': new Reply(422, {
        message: 'Asset Limit Reached',
        limitExceeded: true,
        title: 'Asset Limit Reached',
        description: 'Your organization has used all its assets. Contact support to raise the limit.',
      }),
    });
    const dialog = await openBuilder();
    await fillValidSearch(dialog);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const limit = await screen.findByRole('dialog', { name: 'Asset Limit Reached' });
    expect(limit).toHaveTextContent('Your organization has used all its assets.');
    expect(within(limit).getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'mailto:support@example.test',
    );
  });

  it('warns about US persons’ data for a US location in a compliant organization, and Cancel clears it', async () => {
    builderServer({
      'GET /api/v1/geocode/autocomplete': {
        data: [{ address: 'Austin, Texas, United States', name: 'Austin', kind: 'city' }],
      },
      'GET /api/v1/geocode/address': {
        data: {
          address: 'Austin, Texas, United States',
          name: 'Austin',
          bounds: 'POLYGON((0 0,1 0,1 1,0 0))',
          point: { lat: 30.27, lon: -97.74 },
          is_address_in_us_territory: true,
        },
      },
    });
    const profile = testProfile();
    profile.organization.is_uspi_compliant = true;
    const dialog = await openBuilder(profile);
    fireEvent.change(within(dialog).getByLabelText('Location'), { target: { value: 'Aus' } });
    await user.click(await screen.findByRole('option', { name: 'Austin, Texas, United States' }));
    const warning = await screen.findByRole('dialog', { name: 'Sensitive personal information' });
    expect(warning).toHaveTextContent('Austin, Texas, United States is in United States territory.');
    await user.click(within(warning).getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByLabelText('Location')).toHaveValue('');
  });

  it('warns, without blocking, when the location’s area crosses the date line', async () => {
    builderServer({
      'GET /api/v1/geocode/autocomplete': { data: [{ address: 'Fiji', name: 'Fiji', kind: 'country' }] },
      'GET /api/v1/geocode/address': {
        data: {
          address: 'Fiji',
          name: 'Fiji',
          // Split at 180° as the geocoder splits boxes crossing it.
          bounds:
            'MULTIPOLYGON(((177 -19,180 -19,180 -16,177 -16,177 -19)),((-180 -19,-179 -19,-179 -16,-180 -16,-180 -19)))',
          point: { lat: -17.7, lon: 178 },
          is_address_in_us_territory: false,
        },
      },
    });
    const dialog = await openBuilder();
    expect(dialog).not.toHaveTextContent(DATE_LINE_WARNING);
    fireEvent.change(within(dialog).getByLabelText('Location'), { target: { value: 'Fij' } });
    await user.click(await screen.findByRole('option', { name: 'Fiji' }));
    expect(await within(dialog).findByText(DATE_LINE_WARNING)).toBeInTheDocument();
    await fillValidSearch(dialog);
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeEnabled();
  });

  it('does not close on a click beside it while creating', async () => {
    builderServer();
    const dialog = await openBuilder();
    const backdrop = document.querySelector('.MuiBackdrop-root') as HTMLElement;
    await user.click(backdrop);
    expect(dialog).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New saved search' })).not.toBeInTheDocument());
  });

  it('edits a saved search with every panel creating shows, and saves a filter list attached to it', async () => {
    const search = testSearch(42, { value: 'bridge' });
    const requests = builderServer({
      'GET /api/v1/filter-lists/': { data: [testFilterList(7, { name: 'No spam' })] },
      'PUT /api/v1/monitor/searches/42': { data: search },
    });
    const dialog = await openSearchEditor(testProfile(), search);
    for (const panel of ['Data sources', 'Advanced options', 'Search filters', 'Alerts']) {
      expect(within(dialog).getByRole('button', { name: new RegExp(panel) })).toBeInTheDocument();
    }
    await user.click(within(dialog).getByRole('button', { name: /Search filters/ }));
    await user.click(await within(dialog).findByRole('checkbox', { name: /No spam/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(requests.some((r) => r.method === 'PUT')).toBe(true));
    expect(requests.find((r) => r.method === 'PUT')?.body).toMatchObject({ search_filters: [7], alerts: [] });
  });
});
