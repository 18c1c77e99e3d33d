import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { testProfile } from '../test/fixtures';
import { renderApp } from '../test/renderApp';

describe('top bar', () => {
  // The organization's global filter bar flag is Monitor's search over matches in the top bar.
  it.each([
    { flag: true, shown: true },
    { flag: undefined, shown: true },
    { flag: false, shown: false },
  ])('global filter bar flag $flag: search over matches shown $shown', async ({ flag, shown }) => {
    const base = testProfile();
    const feature_flags: Record<string, boolean> = flag === undefined ? {} : { monitor_global_filter_bar: flag };
    renderApp('/monitor/groups', { profile: { ...base, organization: { ...base.organization, feature_flags } } });
    await screen.findByRole('heading', { level: 1, name: 'Search groups' });
    expect(screen.queryByRole('search') !== null).toBe(shown);
  });
});
