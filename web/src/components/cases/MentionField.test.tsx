import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { OrganizationMember } from '../../api/settings';
import { MentionField } from './MentionField';

const user = userEvent.setup({ delay: null });

const members: OrganizationMember[] = [
  { id: 1, name: 'Ada Analyst', email: 'ada@example.test', username: 'ada', role: 'member' },
  { id: 2, name: 'Bob Builder', email: 'bob@example.test', username: '', role: 'member' },
];

function Field() {
  const [value, setValue] = useState('');
  return <MentionField label="Comment" value={value} onChange={setValue} members={members} />;
}

describe('MentionField', () => {
  it('suggests members after an @ and inserts the chosen handle', async () => {
    render(<Field />);
    const box = screen.getByRole('combobox', { name: 'Comment' });
    await user.type(box, 'Ask @b');
    const list = screen.getByRole('listbox', { name: 'Colleagues to mention' });
    expect(list).toHaveTextContent('Bob Builder');
    expect(list).not.toHaveTextContent('Ada');
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Ask @bob@example.test ');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
  });

  it('moves through suggestions with the arrows, and Escape closes them', async () => {
    render(<Field />);
    const box = screen.getByRole('combobox', { name: 'Comment' });
    await user.type(box, '@');
    expect(screen.getAllByRole('option')).toHaveLength(2);
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('option', { name: /Bob/ })).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.type(box, 'x');
    expect(box).toHaveValue('@x');
  });
});
