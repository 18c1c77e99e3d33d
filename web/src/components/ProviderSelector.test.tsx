import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { defaultSelection } from '../lib/providerSelection';
import { testProviders } from '../test/fixtures';
import { ProviderSelector } from './ProviderSelector';

const user = userEvent.setup({ delay: null });

function Harness() {
  const [selection, setSelection] = useState(() => defaultSelection(testProviders));
  return (
    <>
      <ProviderSelector providers={testProviders} selection={selection} onChange={setSelection} />
      <output aria-label="Selection">{selection.join(',')}</output>
    </>
  );
}

const selection = () => screen.getByRole('status', { name: 'Selection' }).textContent;

describe('provider selector', () => {
  it('wires the boxes, the Only buttons and the region boxes to the rules', async () => {
    render(<Harness />);
    expect(selection()).toBe('twitter,reddit,gab,vk');
    expect(screen.getByRole('checkbox', { name: 'Select all data sources' })).toHaveAttribute(
      'data-indeterminate',
      'true',
    );

    await user.click(screen.getByRole('button', { name: 'Only VK' }));
    expect(selection()).toBe('vk');
    await user.click(screen.getByRole('button', { name: 'Only VK' }));
    expect(selection()).toBe('twitter,reddit,flickr,gab');

    await user.click(screen.getByRole('checkbox', { name: 'X Firehose' }));
    expect(selection()).toBe('reddit,flickr,gab,gnip');

    await user.click(screen.getByRole('checkbox', { name: 'Global' }));
    expect(selection()).toBe('gab,twitter,reddit,flickr');
    await user.click(screen.getByRole('checkbox', { name: 'Global' }));
    expect(selection()).toBe('gab');
  });

  it('explains specialty sources and what select all leaves out', async () => {
    render(<Harness />);
    expect(screen.getByRole('checkbox', { name: 'Infected Host Data' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'About Infected Host Data' }));
    const popup = await screen.findByRole('dialog', { name: 'About Infected Host Data' });
    expect(popup).toHaveTextContent('Infected Host Data is a specialty data source');
    expect(within(popup).getByRole('link', { name: 'Learn more' })).toHaveAttribute('target', '_blank');
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: 'About selecting all data sources' }));
    expect(await screen.findByRole('dialog', { name: 'About selecting all data sources' })).toHaveTextContent(
      'such as X Firehose',
    );
  });

  it('hides and shows the provider icons', async () => {
    const { container } = render(<Harness />);
    const icons = () => container.querySelectorAll('[aria-hidden="true"] svg, span[aria-hidden="true"]').length;
    const before = icons();
    await user.click(screen.getByRole('switch', { name: 'Show provider icons' }));
    expect(icons()).toBeLessThan(before);
  });
});
